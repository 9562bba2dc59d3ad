/** An answer's cost from its usage and the model's prices, price tiers for long prompts included. */
import { describe, expect, test } from "bun:test";
import { costOf, type ModelPrices } from "../../src/providers/index.ts";

describe("costOf", () => {
  test("plain input, cache reads and writes, output, each at its rate per million tokens", () => {
    const prices: ModelPrices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    expect(costOf({ inputTokens: 3500, cacheReadTokens: 2000, cacheWriteTokens: 500, outputTokens: 100 }, prices)).toBe(
      (1000 * 3 + 2000 * 0.3 + 500 * 3.75 + 100 * 15) / 1e6,
    );
  });

  test("a prompt longer than a tier's threshold is billed at that tier's rates, the highest tier passed winning", () => {
    const prices: ModelPrices = {
      input: 1,
      output: 2,
      cacheRead: 0.1,
      tiers: [
        { aboveTokens: 500_000, input: 4, output: 8 },
        { aboveTokens: 200_000, input: 2, output: 4, cacheRead: 0.2 },
      ],
    };
    expect(costOf({ inputTokens: 200_000, outputTokens: 10 }, prices)).toBe((200_000 * 1 + 10 * 2) / 1e6);
    expect(costOf({ inputTokens: 200_001, cacheReadTokens: 100_000, outputTokens: 10 }, prices)).toBe(
      (100_001 * 2 + 100_000 * 0.2 + 10 * 4) / 1e6,
    );
    // A tier without a cache price bills cache reads as its own input.
    expect(costOf({ inputTokens: 600_000, cacheReadTokens: 100_000, outputTokens: 10 }, prices)).toBe(
      (600_000 * 4 + 10 * 8) / 1e6,
    );
  });
});
