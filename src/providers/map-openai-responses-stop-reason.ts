/** The Responses API's final status as a StopReason. */
import type { StopReason } from "./types.ts";

/**
 * Maps a Responses API final status and `incomplete_details.reason`
 * (https://platform.openai.com/docs/api-reference/responses/object).
 * A completed response that made function calls is a tool-use stop.
 */
export function mapOpenAIResponsesStopReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
): StopReason {
  if (status === "incomplete") {
    if (incompleteReason === "max_output_tokens") return "max_tokens";
    if (incompleteReason === "content_filter") return "refusal";
    return "other";
  }
  if (hasToolCalls) return "tool_use";
  return status === "completed" ? "end_turn" : "other";
}
