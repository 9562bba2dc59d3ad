/** Anthropic's usage counters, accumulated over the stream, as Usage (cache tokens added into the input). */
import type { Usage } from "./types.ts";

/** Anthropic's usage counters as they accumulate over `message_start` and `message_delta`. */
export interface AnthropicUsageCounters {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  /** `output_tokens_details.thinking_tokens` (Claude 4.7 and later report it): the part of the output spent thinking. */
  thinking_tokens?: number;
}

/**
 * Maps Messages API usage (https://docs.anthropic.com/en/api/messages#response-usage).
 * Anthropic counts cache reads and writes apart from `input_tokens`; they
 * are added so `inputTokens` is the whole prompt, as on other protocols.
 */
export function mapAnthropicUsage(counters: AnthropicUsageCounters): Usage {
  const cacheRead = counters.cache_read_input_tokens ?? 0;
  const cacheWrite = counters.cache_creation_input_tokens ?? 0;
  const usage: Usage = {
    inputTokens: (counters.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: counters.output_tokens ?? 0,
  };
  if (cacheRead > 0) usage.cacheReadTokens = cacheRead;
  if (cacheWrite > 0) usage.cacheWriteTokens = cacheWrite;
  if (counters.thinking_tokens !== undefined && counters.thinking_tokens > 0)
    usage.reasoningTokens = counters.thinking_tokens;
  return usage;
}

/** Folds one wire `usage` object into the counters; later non-null values win (message_delta carries cumulative totals). */
export function mergeAnthropicUsage(counters: AnthropicUsageCounters, wire: unknown): AnthropicUsageCounters {
  if (typeof wire !== "object" || wire === null) return counters;
  const next = { ...counters };
  for (const key of [
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
  ] as const) {
    const value = (wire as Record<string, unknown>)[key];
    if (typeof value === "number" && Number.isFinite(value)) next[key] = value;
  }
  const details = (wire as Record<string, unknown>).output_tokens_details;
  const thinking =
    typeof details === "object" && details !== null ? (details as Record<string, unknown>).thinking_tokens : undefined;
  if (typeof thinking === "number" && Number.isFinite(thinking)) next.thinking_tokens = thinking;
  return next;
}
