/**
 * Prices of the big providers' models, used when a model of a preset
 * declares no `cost:` (config wins). Dollars per million tokens. Anthropic's
 * were checked in December 2026 against
 * https://platform.claude.com/docs/en/about-claude/pricing and the models'
 * own pages (cache write: the 5-minute rate); OpenAI's are those
 * https://openai.com/api/pricing gave for these models (cached input;
 * OpenAI bills no cache writes), and newer OpenAI models are not listed.
 * Prices change; docs/config.md says so.
 *
 * A model is priced only when its id is one of these, or one of these with
 * a date (`-20250929`, `-2024-08-06`) or `-latest` after it: a variant of a
 * family (`o3-mini`, `gpt-5-pro`, `claude-opus-4-6`) has prices of its own,
 * and no price is better than another model's. Left out on purpose: models
 * priced by prompt length (Claude Haiku 5.5) or by the hour (DeepSeek's
 * peak and off-peak rates since August 2026), and models whose cache
 * prices the vendor's pricing page did not confirm when checked (Claude
 * Opus 5.5 and Sonnet 5.5): write `cost:` for those.
 */
import type { ModelPrices } from "../providers/types.ts";

type Table = ReadonlyArray<readonly [ids: readonly string[], prices: ModelPrices]>;

const ANTHROPIC: Table = [
  [["claude-fable-5-1"], { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 }],
  [["claude-fable-5"], { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 }],
  [
    ["claude-opus-5", "claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5"],
    { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  ],
  [
    ["claude-opus-4-1", "claude-opus-4-0", "claude-opus-4"],
    { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
  ],
  [["claude-sonnet-5"], { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 }],
  [
    ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4-0", "claude-sonnet-4", "claude-3-7-sonnet"],
    { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  ],
  [["claude-haiku-4-5"], { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  [["claude-3-5-haiku"], { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
];

const OPENAI: Table = [
  [["gpt-5.1", "gpt-5.1-codex", "gpt-5", "gpt-5-codex", "gpt-5-chat"], { input: 1.25, output: 10, cacheRead: 0.125 }],
  [["gpt-5-mini", "gpt-5.1-codex-mini"], { input: 0.25, output: 2, cacheRead: 0.025 }],
  [["gpt-5-nano"], { input: 0.05, output: 0.4, cacheRead: 0.005 }],
  [["gpt-4.1"], { input: 2, output: 8, cacheRead: 0.5 }],
  [["gpt-4.1-mini"], { input: 0.4, output: 1.6, cacheRead: 0.1 }],
  [["gpt-4.1-nano"], { input: 0.1, output: 0.4, cacheRead: 0.025 }],
  [["gpt-4o"], { input: 2.5, output: 10, cacheRead: 1.25 }],
  [["gpt-4o-mini"], { input: 0.15, output: 0.6, cacheRead: 0.075 }],
  [["o3"], { input: 2, output: 8, cacheRead: 0.5 }],
  [["o4-mini"], { input: 1.1, output: 4.4, cacheRead: 0.275 }],
];

const BY_PRESET: Readonly<Record<string, Table>> = { anthropic: ANTHROPIC, openai: OPENAI };

/** What may follow a listed id and still name the same model: a snapshot date, or `latest`. */
const SNAPSHOT_SUFFIX = /^-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** The preset's price for a wire id it lists (exact, or with a snapshot date or `-latest`). */
export function defaultPrices(preset: string | undefined, wireId: string): ModelPrices | undefined {
  const table = preset === undefined ? undefined : BY_PRESET[preset];
  const id = wireId.toLowerCase();
  const found = table?.find(([ids]) =>
    ids.some((known) => id === known || (id.startsWith(known) && SNAPSHOT_SUFFIX.test(id.slice(known.length)))),
  );
  return found ? { ...found[1] } : undefined;
}
