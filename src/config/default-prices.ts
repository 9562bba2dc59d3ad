/**
 * Prices of the big providers' current models, used when a model of a
 * preset declares no `cost:` (config wins). Dollars per million tokens, as
 * the vendors published them when this table was written (late 2025):
 * https://docs.anthropic.com/en/docs/about-claude/pricing (cache write: the
 * 5-minute rate), https://openai.com/api/pricing (cached input; OpenAI bills
 * no cache writes), https://api-docs.deepseek.com/quick_start/pricing.
 * Prices change; docs/config.md says so.
 */
import type { ModelPrices } from "../providers/types.ts";

type Table = ReadonlyArray<readonly [family: string, prices: ModelPrices]>;

// Longer families first: "gpt-4o-mini" must win over "gpt-4o".
const ANTHROPIC: Table = [
  ["claude-opus-4-5", { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ["claude-opus-4-1", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-opus-4", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-sonnet-4-5", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-sonnet-4", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-3-7-sonnet", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
];

const OPENAI: Table = [
  ["gpt-5-nano", { input: 0.05, output: 0.4, cacheRead: 0.005 }],
  ["gpt-5-mini", { input: 0.25, output: 2, cacheRead: 0.025 }],
  ["gpt-5", { input: 1.25, output: 10, cacheRead: 0.125 }],
  ["gpt-4.1-nano", { input: 0.1, output: 0.4, cacheRead: 0.025 }],
  ["gpt-4.1-mini", { input: 0.4, output: 1.6, cacheRead: 0.1 }],
  ["gpt-4.1", { input: 2, output: 8, cacheRead: 0.5 }],
  ["gpt-4o-mini", { input: 0.15, output: 0.6, cacheRead: 0.075 }],
  ["gpt-4o", { input: 2.5, output: 10, cacheRead: 1.25 }],
  ["o4-mini", { input: 1.1, output: 4.4, cacheRead: 0.275 }],
  ["o3", { input: 2, output: 8, cacheRead: 0.5 }],
];

const DEEPSEEK: Table = [
  ["deepseek-chat", { input: 0.28, output: 0.42, cacheRead: 0.028 }],
  ["deepseek-reasoner", { input: 0.28, output: 0.42, cacheRead: 0.028 }],
];

const BY_PRESET: Readonly<Record<string, Table>> = { anthropic: ANTHROPIC, openai: OPENAI, deepseek: DEEPSEEK };

/** The preset's price for a wire id of a known family (exact, or with a dated or other `-suffix`). */
export function defaultPrices(preset: string | undefined, wireId: string): ModelPrices | undefined {
  const table = preset === undefined ? undefined : BY_PRESET[preset];
  const id = wireId.toLowerCase();
  const found = table?.find(([family]) => id === family || id.startsWith(`${family}-`));
  return found ? { ...found[1] } : undefined;
}
