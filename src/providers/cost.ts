/** What an answer cost in US dollars, from its usage and the model's prices. */
import type { ModelPrices, Usage } from "./types.ts";

/**
 * What one answer cost, in US dollars: the prompt's plain part at the input
 * price, cache reads and writes at theirs (the input price when the model
 * names none), output (reasoning included) at the output price. Prices are
 * per million tokens. `inputTokens` holds the whole prompt, cache parts
 * included (see Usage), so the plain part is what is left of it; a prompt
 * longer than a price tier's threshold is billed at that tier's rates.
 */
export function costOf(usage: Usage, allPrices: ModelPrices): number {
  const prices = ratesFor(usage.inputTokens, allPrices);
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - read - write);
  const dollars =
    plain * prices.input +
    read * (prices.cacheRead ?? prices.input) +
    write * (prices.cacheWrite ?? prices.input) +
    usage.outputTokens * prices.output;
  // Rounded to a millionth of a dollar: enough for any sum, and free of float noise in stored files.
  return Math.round(dollars) / 1_000_000;
}

/** The rates for a prompt of `promptTokens`: the highest tier it is longer than, else the base rates. */
function ratesFor(promptTokens: number, prices: ModelPrices): Omit<ModelPrices, "tiers"> {
  const highestFirst = [...(prices.tiers ?? [])].sort((a, b) => b.aboveTokens - a.aboveTokens);
  return highestFirst.find((tier) => promptTokens > tier.aboveTokens) ?? prices;
}
