/** Anthropic's `stop_reason` as a StopReason. */
import type { StopReason } from "./types.ts";

/**
 * Maps a Messages API `stop_reason`
 * (https://docs.anthropic.com/en/api/handling-stop-reasons).
 */
export function mapAnthropicStopReason(stopReason: string | undefined): StopReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}
