/**
 * A config.yaml model without `context_window` or `cost:` takes the models.dev
 * snapshot's figures when its endpoint is a catalogue provider's; what
 * config.yaml (or the preset's own price table) says always wins.
 */
import { describe, expect, test } from "bun:test";
import { catalogueFigures, SNAPSHOT_DATE, snapshotProvider } from "../../src/models-dev/index.ts";
import { parse } from "./parse-helpers.ts";

type Entry = Record<string, unknown>;
const SOURCE = `the models.dev snapshot of ${SNAPSHOT_DATE}`;

function resolve(provider: string, model: string) {
  return parse(`providers:\n  p:\n${provider}\n    models:\n      m: ${model}\n`).resolveModel("p/m");
}

/** A model of the catalogue's `provider` priced without tiers, reasoning rate or zeros, to compare with. */
function plainlyPriced(provider: string): [id: string, cost: Entry, limit: Entry] {
  const models = snapshotProvider(provider)!.models as Record<string, Entry>;
  const found = Object.values(models).find((m) => {
    const cost = m.cost as Entry | undefined;
    return (
      cost &&
      cost.tiers === undefined &&
      cost.context_over_200k === undefined &&
      cost.reasoning === undefined &&
      (cost.input as number) > 0 &&
      (m.limit as Entry).context
    );
  })!;
  return [found.id as string, found.cost as Entry, found.limit as Entry];
}

describe("figures from the models.dev snapshot", () => {
  test("a vendor preset's model without context_window or cost gets the catalogue's window (naming its source) and prices", () => {
    const [id, cost, limit] = plainlyPriced("openrouter");
    const model = resolve("    preset: openrouter", `{ id: "${id}" }`);
    expect(model.contextWindow).toBe(limit.context as number);
    expect(model.contextWindowSource).toBe(SOURCE);
    expect(model.prices).toEqual({
      input: cost.input as number,
      output: cost.output as number,
      ...(cost.cache_read !== undefined ? { cacheRead: cost.cache_read as number } : {}),
      ...(cost.cache_write !== undefined ? { cacheWrite: cost.cache_write as number } : {}),
    });
  });

  test("a provider without a preset whose base_url is a catalogue provider's API URL gets them too", () => {
    const provider = snapshotProvider("zai-coding-plan")!;
    const id = Object.keys(provider.models as Entry)[0]!;
    const model = resolve(`    protocol: openai_chat_completions\n    base_url: ${provider.api}`, `{ id: "${id}" }`);
    const expected = catalogueFigures({ baseUrl: provider.api as string }, id)!;
    expect(model.contextWindow).toBe(expected.contextWindow!);
    expect(model.prices).toEqual(expected.prices!);
  });

  test("an explicit context_window and cost win, and the window then names no source", () => {
    const [id] = plainlyPriced("openrouter");
    const model = resolve(
      "    preset: openrouter",
      `{ id: "${id}", context_window: 4096, cost: { input: 9, output: 99 } }`,
    );
    expect(model.contextWindow).toBe(4096);
    expect(model.contextWindowSource).toBeUndefined();
    expect(model.prices).toEqual({ input: 9, output: 99 });
  });

  test("each figure is filled on its own: a written cost keeps the catalogue's window, a written window the catalogue's prices", () => {
    const [id, cost, limit] = plainlyPriced("openrouter");
    const priced = resolve("    preset: openrouter", `{ id: "${id}", cost: { input: 9, output: 99 } }`);
    expect([priced.contextWindow, priced.prices]).toEqual([limit.context as number, { input: 9, output: 99 }]);
    const windowed = resolve("    preset: openrouter", `{ id: "${id}", context_window: 4096 }`);
    expect([windowed.contextWindow, windowed.prices?.input]).toEqual([4096, cost.input as number]);
  });

  test("the preset's own price table comes before the catalogue (gpt-4o: default-prices.ts)", () => {
    expect(resolve("    preset: openai", "{ id: gpt-4o }").prices).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
  });

  test("long prompts' rates come along as price tiers", () => {
    const models = snapshotProvider("openai")!.models as Record<string, Entry>;
    const tiered = Object.values(models).find(
      (m) => Array.isArray((m.cost as Entry | undefined)?.tiers) && (m.cost as Entry).reasoning === undefined,
    )!;
    const tier = ((tiered.cost as Entry).tiers as Entry[])[0]!;
    const model = resolve("    preset: openai", `{ id: "${tiered.id}" }`);
    expect(model.prices?.tiers?.[0]).toMatchObject({
      aboveTokens: (tier.tier as Entry).size as number,
      input: tier.input as number,
      output: tier.output as number,
    });
  });

  test("DeepSeek bills by the hour: its models get the catalogue's window but no price", () => {
    const id = Object.keys(snapshotProvider("deepseek")!.models as Entry)[0]!;
    const model = resolve("    preset: deepseek", `{ id: "${id}" }`);
    expect(model.contextWindow).toBeGreaterThan(0);
    expect(model.prices).toBeUndefined();
  });

  test("a server of one's own gets nothing, even for an id the catalogue knows", () => {
    for (const provider of [
      "    preset: ollama",
      "    preset: lmstudio",
      "    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:8080/v1",
    ]) {
      const model = resolve(provider, "{ id: gpt-4o }");
      expect([provider, model.contextWindow, model.prices]).toEqual([provider, undefined, undefined]);
    }
  });

  test("a model the catalogue does not list keeps its figures unknown", () => {
    const unknown = resolve("    preset: openai", "{ id: my-fine-tune }");
    expect([unknown.contextWindow, unknown.prices]).toEqual([undefined, undefined]);
  });
});
