import type { StopReason } from "./types.ts";

/**
 * Maps a Chat Completions `finish_reason`
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices).
 * Some local servers say `stop` even after tool calls, so calls decide.
 */
export function mapOpenAIChatStopReason(finishReason: string | undefined, hasToolCalls: boolean): StopReason {
  if (hasToolCalls) return "tool_use";
  switch (finishReason) {
    case "stop":
      return "end_turn";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}
