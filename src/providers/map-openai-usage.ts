/**
 * The `usage` object of both OpenAI protocols as Usage. Chat Completions and
 * Responses report the same four counts under two spellings
 * (`prompt_tokens`/`input_tokens`, `*_tokens_details`); one mapper keeps a
 * fix to either from missing the other.
 */
import type { Usage } from "./types.ts";

/** Which spelling of the usage fields a protocol uses. */
export type OpenAIUsageSpelling = "chat_completions" | "responses";

const FIELDS = {
  // https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
  chat_completions: {
    input: "prompt_tokens",
    output: "completion_tokens",
    inputDetails: "prompt_tokens_details",
    outputDetails: "completion_tokens_details",
  },
  // https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
  responses: {
    input: "input_tokens",
    output: "output_tokens",
    inputDetails: "input_tokens_details",
    outputDetails: "output_tokens_details",
  },
} as const;

/** Maps a wire `usage`; the input count already includes the cached tokens in both protocols. */
export function mapOpenAIUsage(usage: unknown, spelling: OpenAIUsageSpelling): Usage | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const wire = usage as Record<string, unknown>;
  const names = FIELDS[spelling];
  const out: Usage = { inputTokens: count(wire[names.input]), outputTokens: count(wire[names.output]) };
  const cached = detail(wire[names.inputDetails], "cached_tokens");
  if (cached > 0) out.cacheReadTokens = cached;
  const reasoning = detail(wire[names.outputDetails], "reasoning_tokens");
  if (reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

function detail(details: unknown, name: string): number {
  return typeof details === "object" && details !== null ? count((details as Record<string, unknown>)[name]) : 0;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
