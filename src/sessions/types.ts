/**
 * The session file format (contract.md §6) as types: one interface per entry
 * kind, field names exactly as they appear on disk.
 */
import type { AnswerCut, Block, Message, StopReason, Usage } from "../providers/types.ts";

/** The format version this module reads and writes. */
export const SESSION_FORMAT_VERSION = 1;

/** Line 1 of every session file. */
export interface SessionHeader {
  kind: "header";
  version: number;
  id: string;
  createdAt: string;
  /** The agent the session was created with (later `agent` entries switch it). */
  agent: string;
  /** The `provider/alias` the session was created with (later `model` entries switch it). */
  model: string;
  /** Absolute path of the workspace. */
  workdir: string;
  /** A subagent's session: the id of the session whose run started it (an addition to the Go format). */
  parentSession?: string;
  /** A subagent's session: the id of the tool call that started it, in the parent session. */
  parentCallId?: string;
  /** A fork (new): the id of the session it was continued from; that session's file is never written by the fork. */
  forkedFrom?: string;
  /** A fork (new): the entry of `forkedFrom` it continues after (its copied branch ends there); null when it starts before the first message. */
  forkedAt?: string | null;
}

/** What is stored beside an assistant message about the response that produced it. */
export interface MessageMeta {
  responseModel?: string;
  responseStopReason?: StopReason;
  responseUsage?: Usage;
  /** US dollars the response cost (new), when the model's prices were known. */
  responseCost?: number;
  /** A partial answer (new): the interrupt (`user`) or limit (`limit`) that cut it while it streamed. */
  interrupted?: AnswerCut;
}

/** One message of the conversation tree. `parentId` is null for a root. */
export interface MessageEntry extends MessageMeta {
  kind: "message";
  id: string;
  parentId: string | null;
  createdAt: string;
  role: Message["role"];
  blocks: Block[];
}

/** Moves the active leaf; a null target moves it before the first message. */
export interface LeafEntry {
  kind: "leaf";
  targetId: string | null;
  createdAt: string;
}

/** Names the whole session; the last one wins and an empty title removes the name. */
export interface TitleEntry {
  kind: "title";
  createdAt: string;
  title: string;
}

/**
 * Switches the agent on the branch (the Go Rienda's shape, go-current.md §5):
 * a node of the tree like a message, so it becomes the active leaf and the
 * next entry hangs from it. The newest switch on a branch (root to leaf)
 * wins. `previousAgentId` records what it replaced, for readers of the file.
 *
 * `beside`: written by an earlier Rienda as `agent`/`previousAgent`, hanging
 * from the entry `parentId` without becoming the leaf; it applies to every
 * branch through that entry (null: to every branch).
 */
export interface AgentEntry {
  kind: "agent";
  id: string;
  parentId: string | null;
  createdAt: string;
  agentId: string;
  previousAgentId: string;
  beside?: true;
}

/** Switches the model (`provider/alias`) on the branch; same rules as AgentEntry. */
export interface ModelEntry {
  kind: "model";
  id: string;
  parentId: string | null;
  createdAt: string;
  modelRef: string;
  previousModelRef: string;
  beside?: true;
}

/**
 * Sets the thinking level on the branch (the Go Rienda's shape; there is no
 * older one): a node of the tree like a model switch. `off` (also `none` or
 * empty, as read) turns thinking off; no thinking entry on a branch means off.
 */
export interface ThinkingEntry {
  kind: "thinking";
  id: string;
  parentId: string | null;
  createdAt: string;
  thinkingLevel: string;
}

/** The entries that switch what a branch runs with. */
export type SwitchEntry = AgentEntry | ModelEntry | ThinkingEntry;

/**
 * A checkpoint in the tree: when the history is rebuilt, every entry of the
 * branch before `keptId` is replaced by `summary`. It becomes the active
 * leaf, so later messages hang from it.
 */
export interface CompactionEntry {
  kind: "compaction";
  id: string;
  parentId: string | null;
  createdAt: string;
  summary: string;
  keptId: string;
  tokensBefore?: number;
  responseModel?: string;
  responseUsage?: Usage;
}

/**
 * Records that a run was interrupted at the entry `parentId` (the leaf when
 * it stopped). It hangs from that entry without becoming the leaf: the next message still names the interrupted prompt as its parent,
 * so a reader that does not know this kind (Go Rienda) ignores it and loses
 * nothing. The history sent to the model shows it after that entry (see
 * `interruptionMessage`).
 */
export interface InterruptionEntry {
  kind: "interruption";
  id: string;
  parentId: string | null;
  createdAt: string;
  /** `error`: the run failed (provider error after retries, loop guard, ...) rather than being interrupted by the user. */
  reason?: InterruptionReason;
}

/** Why a request was cut short: absent, the user interrupted it. */
export type InterruptionReason = "error" | "limit";

/** Every entry kind this module understands (the header excepted). */
export type SessionEntry =
  | MessageEntry
  | LeafEntry
  | TitleEntry
  | AgentEntry
  | ModelEntry
  | ThinkingEntry
  | CompactionEntry
  | InterruptionEntry;

/** What `appendCompaction` needs. */
export interface CompactionInput {
  summary: string;
  /** The first entry of the branch kept verbatim after the summary. */
  keptId: string;
  tokensBefore?: number;
  responseModel?: string;
  responseUsage?: Usage;
}

/** One session as `listSessions` reports it. */
export interface SessionSummary {
  id: string;
  path: string;
  workdir: string;
  createdAt: string;
  /** When the last entry was written. */
  updatedAt: string;
  /** Agent and model in effect at the active leaf: the newest switch on its branch, else the header's. */
  agent: string;
  model: string;
  /** Thinking level in effect at the active leaf; absent when thinking is off (no thinking entry on the branch). */
  thinking?: string;
  title: string;
  /** Message entries in the file, every branch included. */
  messageCount: number;
  /** Tokens of every answer in the file (every branch), from their stored usage (new). */
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  /** Dollars those answers cost, from their stored cost; null when none has one (new). */
  cost: number | null;
  /** Why the session cannot be loaded, as far as listing can tell; null when it saw nothing wrong. */
  problem: string | null;
  /** Set for a subagent's session: the session and tool call that started it. */
  parentSession?: string;
  parentCallId?: string;
}

/** Returns a new id, sortable by creation time. */
export type IdGenerator = () => string;
