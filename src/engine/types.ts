/**
 * Shapes of the run loop: the events it reports while it works and the way
 * a run ends. Event `type` values are the `--json` wire names (docs/cli.md).
 */
import type { ProviderFailure, StopReason, Usage } from "../providers/index.ts";

/** The six hook points of hooks.md. */
export type HookPoint =
  | "beforeRun"
  | "afterRun"
  | "beforeModelRequest"
  | "afterModelResponse"
  | "beforeToolExecute"
  | "afterToolExecute";

/** Every hook point, in the order a run meets them. */
export const HOOK_POINTS: readonly HookPoint[] = [
  "beforeRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
  "afterRun",
];

/**
 * Why a run ended. `max_tokens`: the final answer was cut at the model's
 * output limit, so it is incomplete (the CLI treats it as a failure).
 * `invalid_output`: with `--schema`, the answer missed the schema even after
 * a repair turn. `max_turns`, `max_cost`: a limit stopped the run before
 * its next request (run-limits.ts); `timeout` is the command's, never the loop's.
 */
export type RunEndReason =
  | "end_turn"
  | "max_tokens"
  | "invalid_output"
  | "max_turns"
  | "max_cost"
  | "timeout"
  | "interrupted"
  | "error";

/** The `reason` afterRun hooks receive (hooks.md): a cut answer is an `error`. */
export type AfterRunReason = "end_turn" | "interrupted" | "error";

/** A tool call as the loop and the hooks see it. */
export interface ToolCall {
  id: string;
  name: string;
  /** Decoded JSON the model sent, or the raw text when it was not JSON. */
  arguments: unknown;
}

/** What a hook did, for the `hook` event. */
export type HookOutcome = "changed" | "refused" | "error";

/** Where live output came from. */
export type OutputStream = "stdout" | "stderr" | "log";

/**
 * Everything the loop reports while a run goes on. An event of a subagent's
 * run carries `parent`: the id of the tool call that started that run, or
 * for a run deeper down the ids of the calls from the top, joined by "/"
 * (docs/subagents.md); the run's own events have none.
 */
export type EngineEvent = (
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "retry"; attempt: number; delayMs: number; message: string }
  | {
      type: "message_end";
      text: string;
      thinking: string;
      toolCalls: ToolCall[];
      stopReason: StopReason;
      usage?: Usage;
      model?: string;
      /** US dollars, when the model's prices are known. */
      cost?: number;
    }
  | {
      type: "tool_call";
      id: string;
      name: string;
      /** The arguments the tool runs with: the model's, or a beforeToolExecute hook's rewrite of them. */
      arguments: unknown;
      /** The model's arguments, only when a hook rewrote them. */
      originalArguments?: unknown;
    }
  | { type: "tool_output"; id: string; name: string; stream: OutputStream; text: string }
  | { type: "tool_result"; id: string; name: string; text: string; isError: boolean }
  | { type: "hook"; name: string; point: HookPoint; outcome: HookOutcome; message?: string }
  /** A permission rule decided a tool call: refused it, or asked and was answered (docs/security.md). */
  | { type: "permission"; id: string; name: string; outcome: "refused" | "approved"; rule?: string; message?: string }
  | { type: "hook_output"; name: string; point: HookPoint; stream: OutputStream; text: string }
  | { type: "notice"; message: string; title?: string; body?: string }
  /** A summary of older turns is being written (by `model`, of `messages` messages, about `tokens` tokens); `compaction_end` follows. */
  | { type: "compaction_start"; model: string; messages: number; tokens: number }
  /** The end of a compaction: whether a summary was stored. */
  | { type: "compaction_end"; compacted: boolean }
  /** A message the user steered into the running turn, now stored and on its way to the model. */
  | { type: "steer"; text: string; files: string[] }
  | { type: "subagent_start"; sessionId: string; agent: string; model: string; workdir: string }
  | { type: "subagent_end"; reason: RunEndReason; message?: string; usage: Usage; cost?: number }
) & { parent?: string };

/** How a run ended. `failure` is set when the reason is "error". */
export interface RunOutcome {
  reason: RunEndReason;
  message?: string;
  failure?: ProviderFailure;
  usage: Usage;
  /** US dollars the run's answers cost, when the model's prices are known. */
  cost?: number;
  /** With `--schema`, a run that ended with `end_turn`: the answer, checked against the schema. */
  output?: { value: unknown };
}
