/**
 * What the run loop needs from the outside world. The engine declares these
 * and the composition root (compose/) supplies real implementations; the
 * engine never imports runtime, extensions, ui or cli.
 */
import type { AnswerCut, Message, ModelRequest, StopReason, StreamEvent, ToolSpec, Usage } from "../providers/index.ts";
import type { ToolResult } from "../tools/types.ts";
import type { MessageSnapshot } from "./conversation.ts";
import type { AfterRunReason, EngineEvent, HookPoint, OutputStream, ToolCall } from "./types.ts";

/** Streams one model answer; retries are applied behind this port. */
export interface ModelPort {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

/** Receives live output of one invocation (tool or hook). */
export interface OutputObserver {
  /** The tool call this output belongs to (a confirmation names it); absent for a hook outside one. */
  readonly callId?: string;
  log(text: string): void;
  output(stream: Exclude<OutputStream, "log">, text: string): void;
  /** Reports an event of a run nested in this invocation (a subagent's), passed on as it is. */
  nested?(event: EngineEvent): void;
}

/** The tools of the running agent. */
export interface ToolPort {
  /** Definitions sent to the model, in the agent's order. */
  specs(): ToolSpec[];
  /** Whether the agent declares a tool of this name. */
  has(name: string): boolean;
  /**
   * Runs one call of a declared tool: validates the arguments (not an object,
   * or not matching the schema → error result), executes, caps the text.
   * Never throws; an interrupt resolves with an error result. `finalSignal`
   * is the run's (aborted by a second interrupt): a tool that runs a run of
   * its own (a subagent) cuts that run's afterRun hooks short with it.
   */
  run(call: ToolCall, observer: OutputObserver, signal: AbortSignal, finalSignal?: AbortSignal): Promise<ToolRunResult>;
}

/** A tool's result, with the model usage the call caused when it ran a model itself (a subagent). */
export interface ToolRunResult extends ToolResult {
  /** Added to the run's totals; counted even when the result is replaced (interrupt, hooks). */
  usage?: Usage;
  /** US dollars those requests cost, when their models' prices are known; added to the run's cost. */
  cost?: number;
}

/**
 * How one hook invocation ended, before the engine gives the value a
 * meaning (hook-chain.ts). "interrupted" is its own outcome: a hook the
 * user's interrupt cut short has no opinion *and* did not finish, and the
 * loop must not carry on as if it had (a redaction hook, say).
 */
export type HookAnswer =
  | { kind: "returned"; value: unknown }
  | { kind: "failed"; message: string }
  | { kind: "interrupted" };

/** The arguments each point's handler receives after `ctx` (hooks.md "The points"). */
export interface HookArguments {
  beforeRun: [{ sessionId: string; agentId: string; modelId: string }];
  afterRun: [{ reason: AfterRunReason }];
  beforeModelRequest: [{ system: string; model: string; messages: MessageSnapshot[] }];
  afterModelResponse: [{ text: string; thinking: string; toolCalls: ToolCall[] }];
  beforeToolExecute: [ToolCall];
  afterToolExecute: [ToolCall, { text: string; isError: boolean }];
}

/**
 * The permission rules of the running agent (docs/security.md): a verdict
 * on each tool call, given before the first beforeToolExecute hook sees it.
 * `ask` rules ask through the same dialogs as `ctx.confirm`. Never throws.
 */
export interface PermissionPort {
  check(call: ToolCall, observer: OutputObserver, signal: AbortSignal): Promise<PermissionVerdict>;
}

/** A rule's verdict: `rule` names the rule that decided (and its file); `asked` when the user was asked. */
export type PermissionVerdict =
  | { kind: "allow" }
  | { kind: "allowed"; rule: string }
  | { kind: "refuse"; reason: string; rule?: string; asked: boolean };

/** The hooks of the running agent, in the agent's order, and the permission rules checked before them. */
export interface HookPort {
  /** Hook names in execution order. */
  readonly names: readonly string[];
  /** The rules checked before the hooks; none: every call goes to the hooks. */
  readonly permissions?: PermissionPort;
  /** Whether the hook implements the point (saves a fresh context when not). */
  handles(name: string, point: HookPoint): boolean;
  /** Calls `handler(ctx, payload[, result])` in a fresh context. Never throws. */
  call<P extends HookPoint>(
    name: string,
    point: P,
    args: HookArguments[P],
    observer: OutputObserver,
    signal: AbortSignal,
  ): Promise<HookAnswer>;
}

/** Metadata stored beside an assistant message. */
export interface ResponseMeta {
  responseModel?: string;
  responseStopReason?: StopReason;
  responseUsage?: Usage;
  /** US dollars this answer cost (new), when the model's prices are known. */
  responseCost?: number;
  /** A partial answer: what cut it short while it streamed. */
  interrupted?: AnswerCut;
}

/** The conversation on disk. Every request is rebuilt from it. */
export interface SessionPort {
  readonly id: string;
  /** The active branch, root to leaf. */
  messages(): Message[];
  /** Appends one message: whole, or an answer cut short marked `interrupted` in `meta`. */
  appendMessage(message: Message, meta?: ResponseMeta): void;
  /**
   * Records that the run was interrupted (or, with `"error"`, failed) where
   * the conversation stands, so that later requests show the request as cut
   * short and the next prompt as a message of its own.
   */
  appendInterruption(reason?: "error" | "limit"): void;
}

/**
 * Keeps the conversation inside the model's context window. Called before
 * every model request; when the history is too long it condenses the older
 * part into a summary stored in the session. Never throws: a failed
 * compaction is a notice and the run goes on with the full history, unless
 * that history is larger than the whole window: then it returns why, and
 * the run ends before a request the server would cut without a word.
 */
export interface CompactionPort {
  maybeCompact(emit: (event: EngineEvent) => void, signal: AbortSignal): Promise<string | undefined>;
}
