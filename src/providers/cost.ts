/** What an answer cost in US dollars, from its usage and the model's prices. */
import type { ModelPrices, Usage } from "./types.ts";

/**
 * What one answer cost, in US dollars: the prompt's plain part at the input
 * price, cache reads and writes at theirs (the input price when the model
 * names none), output (reasoning included) at the output price. Prices are
 * per million tokens. `inputTokens` holds the whole prompt, cache parts
 * included (see Usage), so the plain part is what is left of it.
 */
export function costOf(usage: Usage, prices: ModelPrices): number {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - read - write);
  const dollars =
    plain * prices.input + read * (prices.cacheRead ?? prices.input) + write * (prices.cacheWrite ?? prices.input) + usage.outputTokens * prices.output;
  // Rounded to a millionth of a dollar: enough for any sum, and free of float noise in stored files.
  return Math.round(dollars) / 1_000_000;
}
