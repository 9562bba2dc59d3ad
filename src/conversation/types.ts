/**
 * The conversation every front end opens (`run`'s chat siblings: the line
 * chat, the full-screen chat, `rpc`, `acp`): what it offers and the rows it
 * answers with. Front ends only forward input and render its events.
 */
import type { McpServerSettings } from "../config/index.ts";
import type { EngineEvent, RunOutcome } from "../engine/index.ts";
import type { AttachmentBlock, Message } from "../providers/index.ts";
import type { BranchMessage, BranchStats } from "./branch-view.ts";
import type { ModelRow } from "./model-rows.ts";
import type { QueueKind } from "./turn-queue.ts";

/** One queued message as front ends list it. */
export interface QueuedRow {
  id: number;
  kind: QueueKind;
  text: string;
}

/** What a conversation starts from, read from a front end's flags. */
export interface ConversationStart {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId?: string;
  modelRef?: string;
  /** `--thinking LEVEL` for the first agent prepared. */
  thinking?: string;
  /** `--sandbox MODE`, for every agent the conversation prepares (docs/security.md). */
  sandbox?: string;
  /** MCP servers the client passed (an ACP editor's), started for every agent the conversation prepares. */
  clientMcpServers?: McpServerSettings[];
  sessionId?: string;
  /** -C was given: a continued session runs there, not in its recorded workspace. */
  workdirGiven: boolean;
  /** The chat records model and thinking picks in state.json; rpc does not. */
  rememberPicks?: boolean;
  /** Shown with the conversation's first notices (a pick state.json could not record). */
  notices?: string[];
}

/** Where the conversation stands. */
export interface ChatStatus {
  agent: string;
  /** `provider/alias`. */
  model: string;
  /** The model's thinking level from the next turn on (`off` for none). */
  thinking?: string;
  /** Null until the first message of a new conversation creates the session. */
  sessionId: string | null;
  workdir: string;
  /** The model's context window in tokens, when config.yaml gives it (`context_window`). */
  contextWindow?: number;
}

/** One line of `/sessions`. */
export interface SessionRow {
  id: string;
  /** RFC 3339. */
  updatedAt: string;
  agent: string;
  model: string;
  title: string;
  messageCount: number;
}

/** One agent of the picker. */
export interface AgentRow {
  id: string;
  description: string;
  /** Absent when the agent names no model (the session picks one). */
  model?: string;
}

/** One line of `/tree`. */
export interface TreeRow {
  id: string;
  /** The line as drawn: branch lines, the active mark, the id and a label. */
  text: string;
  /** On the active branch. */
  active: boolean;
  /** When the message was written (RFC 3339). */
  createdAt?: string;
}

/** One tool of `/tools`. */
export interface ToolRow {
  name: string;
  description: string;
}

/** What a turn is given besides the prompt. */
export interface TurnIo {
  emit(event: EngineEvent): void;
  /** Aborted by the first Ctrl-C. */
  signal: AbortSignal;
  /** Aborted by the second one (cuts afterRun hooks short). */
  finalSignal: AbortSignal;
}

/** A file attached to the next message, as the chat shows it. */
export interface AttachmentRow {
  name: string;
  /** "text", "image" or "PDF", with the size: `image, 12 KB`. */
  description: string;
}

/**
 * The conversation behind the screen. Methods that can be refused (an
 * unknown agent, model or session) throw a RiendaError and change nothing.
 */
export interface Conversation {
  status(): ChatStatus;
  /** Creates the session when there is none yet; `created` says whether this call did. */
  ensureSession(): { id: string; created: boolean };
  /** One engine run over the current session. Failures come back as the outcome, not thrown. */
  runTurn(prompt: string, io: TurnIo): Promise<RunOutcome>;
  /** Leaves the current session; the next message starts a new one with the same agent and model. */
  newSession(): void;
  /** This workspace's sessions, newest first. */
  listSessions(): SessionRow[];
  /**
   * Continues another session of this workspace with its agent and model.
   * The switches give up when `signal` is aborted (an `interrupted`
   * RiendaError) and leave the conversation as it was.
   */
  resume(id: string, signal?: AbortSignal): Promise<void>;
  /** Switches agent (and to its model), recorded in the session. */
  switchAgent(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * Switches model, recorded in the session. The thinking level stays when
   * the new model offers it; else the new model's own, and a notice says so.
   */
  switchModel(ref: string, signal?: AbortSignal): Promise<void>;
  /** The current model's thinking levels, `off` first. */
  thinkingLevels(): string[];
  /**
   * Sets the thinking level from the next turn on, recorded in the session;
   * refused (a RiendaError listing the model's levels) when the model does
   * not offer it. Returns notices about the switch (a pick not recorded).
   */
  setThinking(level: string): string[];
  /**
   * Forks the current session (from entry `at`, else its active leaf) into a
   * new session and continues there; returns the new id. The original is not
   * written. A RiendaError when there is no session yet or `at` cannot be continued.
   */
  fork(at?: string, signal?: AbortSignal): Promise<string>;
  /**
   * Continues the current session from entry `id` on a new branch of the same
   * file (sessions/branch-point.ts). Returns the text of the prompt when `id`
   * is one (the next message takes its place), for the editor to offer again.
   */
  continueAt(id: string, signal?: AbortSignal): Promise<{ prompt?: string }>;
  /** Every message of every branch of the current session, drawn as `sessions show --tree` draws them. */
  treeRows(): TreeRow[];
  /** Writes the current session, as `sessions export` does, to a new file (never overwriting); returns its absolute path. */
  exportTo(path: string): string;
  /** Compacts the current session now; whether a summary was stored. */
  compact(io: Omit<TurnIo, "finalSignal">): Promise<boolean>;
  listAgents(): AgentRow[];
  /** Every model offered, with its context window, thinking levels and key state (`rienda models`). */
  modelRows(): Promise<ModelRow[]>;
  /** Every `provider/model` offered (config.yaml's providers and provider modules), sorted. */
  listModels(): Promise<string[]>;
  /** The current agent's tools, in its order. */
  tools(): ToolRow[];
  /**
   * Attaches a file (relative to the workspace) to the next message, checked
   * against the current model; throws a RiendaError naming the problem.
   */
  attach(path: string): AttachmentRow;
  /** What the next message carries, in order. */
  pendingAttachments(): AttachmentRow[];
  /** Forgets every file attached to the next message (a refused rpc prompt leaves none behind). */
  dropAttachments(): void;
  /** Reads a file of the workspace as an attachment, not attached to anything yet (a steered message's files). */
  readAttachment(path: string): AttachmentBlock;
  /** Attaches an attachment already read (an rpc image sent inline) to the next message, checked against the model. */
  attachBlock(block: AttachmentBlock): AttachmentRow;
  /**
   * Steers a message into the running turn: stored and sent before its next
   * request (after the tool calls of the answer in progress), or, steered in
   * while the final answer streams, one more request of the turn. Returns
   * the id `withdraw` takes it back by. A RiendaError when a file does not fit the model.
   */
  steer(text: string, attachments?: AttachmentBlock[]): number;
  /** Queues a message for after the turn (each follow-up a turn of its own, in order); its id. */
  followUp(text: string, attachments?: AttachmentBlock[]): number;
  /** Takes a queued message back before it is delivered (undefined when it is already gone). */
  withdraw(id: number): { text: string } | undefined;
  /** What waits in the queue, oldest first. */
  queued(): QueuedRow[];
  /** The next follow-up, out of the queue, its files attached to the next message; the caller runs it as a turn. */
  nextFollowUp(): { id: number; text: string } | undefined;
  /** Drops every queued message; how many there were. */
  clearQueue(): number;
  /** The active branch with entry ids (what `fork` and `continueAt` take). */
  messages(): BranchMessage[];
  /** Tokens, cost and context share of the active branch. */
  stats(): BranchStats;
  /** The current agent's hooks, in execution order. */
  hooks(): string[];
  /** The active branch of the current session (empty before the first message). */
  history(): HistoryItem[];
  /** Diagnostics of the current agent worth showing (a user tool replacing a built-in). */
  notices(): string[];
  /** The git branch of the working directory (a detached HEAD's short commit); undefined outside a repository. */
  gitBranch(): string | undefined;
  /** Names the current session (its title in /sessions and `rienda sessions`); a RiendaError before the first message. */
  rename(title: string): void;
  /** Stops workers; the backend is not used afterwards. */
  close(): void;
}

/**
 * One step of a session's history for the recap: a message, or what the
 * history stands in for with a fixed text written for the model: a request
 * that ended without an answer (interrupted, or failed), or earlier turns
 * condensed by compaction.
 */
export type HistoryItem = Message | { role: "ended"; reason: EndedReason } | { role: "condensed" };

/** Why a request ended without an answer: interrupted, failed, or stopped by a run limit. */
export type EndedReason = "interrupted" | "error" | "limit";
