/** Chat Completions `finish_reason` as a StopReason. */
import type { StopReason } from "./types.ts";

/**
 * Maps a Chat Completions `finish_reason`
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices).
 * `length` wins over everything: an answer cut at the output limit is cut,
 * even when calls were started (their arguments may be half-written, issue
 * 30). Otherwise calls decide, as some local servers say `stop` even after
 * tool calls.
 */
export function mapOpenAIChatStopReason(finishReason: string | undefined, hasToolCalls: boolean): StopReason {
  if (finishReason === "length") return "max_tokens";
  if (hasToolCalls) return "tool_use";
  switch (finishReason) {
    case "stop":
      return "end_turn";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}
