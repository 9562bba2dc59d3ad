/** The Responses API's `usage` as Usage. */
import type { Usage } from "./types.ts";

/**
 * Maps `response.usage` of the Responses API
 * (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage).
 * `input_tokens` already includes cached tokens.
 */
export function mapOpenAIResponsesUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const wire = usage as {
    input_tokens?: unknown;
    output_tokens?: unknown;
    input_tokens_details?: { cached_tokens?: unknown } | null;
    output_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const out: Usage = { inputTokens: count(wire.input_tokens), outputTokens: count(wire.output_tokens) };
  const cached = wire.input_tokens_details?.cached_tokens;
  if (typeof cached === "number" && cached > 0) out.cacheReadTokens = cached;
  const reasoning = wire.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number" && reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
