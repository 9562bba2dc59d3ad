/** Chat Completions `usage` as Usage, with the cache and reasoning counts each server names its own way. */
import type { Usage } from "./types.ts";

/**
 * Maps the `usage` of the last Chat Completions chunk
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage).
 * `prompt_tokens` already includes cached tokens.
 */
export function mapOpenAIChatUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const wire = usage as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const out: Usage = { inputTokens: count(wire.prompt_tokens), outputTokens: count(wire.completion_tokens) };
  const cached = wire.prompt_tokens_details?.cached_tokens;
  if (typeof cached === "number" && cached > 0) out.cacheReadTokens = cached;
  const reasoning = wire.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number" && reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
