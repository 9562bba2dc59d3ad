/**
 * The figures of a config.yaml model from the snapshot: which catalogue
 * provider an endpoint is (base_url first, then a vendor preset, else
 * none), agreement between providers sharing an endpoint, and prices in
 * Rienda's shape (tiers included, unbillable costs left out).
 */
import { describe, expect, test } from "bun:test";
import { catalogueFigures, snapshotProvider } from "../../src/models-dev/index.ts";
import { pricesOf } from "../../src/models-dev/figures.ts";

type Entry = Record<string, unknown>;

/** The raw catalogue entry of `model` at `provider`, to compare figures with. */
function entry(provider: string, model: string): Entry {
  return (snapshotProvider(provider)!.models as Record<string, Entry>)[model]!;
}

describe("which catalogue provider a config.yaml provider is", () => {
  test("a vendor preset is its vendor, whatever base_url says (a proxy still bills the vendor's prices)", () => {
    const figures = catalogueFigures({ preset: "openai", baseUrl: "http://127.0.0.1:8080/v1" }, "gpt-4o");
    expect(figures?.providers).toEqual(["openai"]);
    const limit = entry("openai", "gpt-4o").limit as Entry;
    expect(figures?.contextWindow).toBe(limit.context as number);
    expect(figures?.maxOutputTokens).toBe(limit.output as number);
    expect(figures?.prices).toEqual(pricesOf(entry("openai", "gpt-4o").cost));
    for (const preset of ["anthropic", "openrouter", "deepseek"]) {
      const model = Object.keys(snapshotProvider(preset)!.models as Entry)[0]!;
      expect(catalogueFigures({ preset, baseUrl: "https://example.invalid" }, model)?.providers).toEqual([preset]);
    }
  });

  test("without a vendor preset, a base_url that is a catalogue provider's API URL (trailing slash, the host's case and a final /v1 aside)", () => {
    const provider = snapshotProvider("zai-coding-plan")!;
    const model = Object.keys(provider.models as Entry)[0]!;
    const api = provider.api as string;
    const host = new URL(api).host;
    for (const baseUrl of [api, `${api}/`, api.replace(host, host.toUpperCase())]) {
      expect([baseUrl, catalogueFigures({ baseUrl }, model)?.providers]).toEqual([baseUrl, ["zai-coding-plan"]]);
    }
    expect(
      catalogueFigures(
        { baseUrl: "https://api.deepseek.com/v1" },
        Object.keys(snapshotProvider("deepseek")!.models as Entry)[0]!,
      )?.providers,
    ).toEqual(["deepseek"]);
    // The vendors' own endpoints, which the catalogue leaves to their SDKs.
    expect(catalogueFigures({ baseUrl: "https://api.anthropic.com" }, "claude-sonnet-4-5")?.providers).toEqual([
      "anthropic",
    ]);
    expect(catalogueFigures({ baseUrl: "https://api.openai.com/v1" }, "gpt-4o")?.providers).toEqual(["openai"]);
  });

  test("a base_url that is a catalogue endpoint wins over the preset", () => {
    expect(
      catalogueFigures({ preset: "openai", baseUrl: "https://openrouter.ai/api/v1" }, "openai/gpt-4o")?.providers,
    ).toEqual(["openrouter"]);
  });

  test("a server of one's own gets nothing: ollama and lmstudio presets, http URLs, even ones the catalogue lists (LM Studio's)", () => {
    expect(catalogueFigures({ preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1" }, "gpt-4o")).toBeUndefined();
    expect(catalogueFigures({ preset: "lmstudio", baseUrl: "http://127.0.0.1:1234/v1" }, "gpt-4o")).toBeUndefined();
    const lmstudio = snapshotProvider("lmstudio");
    expect(lmstudio?.api).toMatch(/^http:\/\/127\.0\.0\.1/);
    const localModel = Object.keys(lmstudio!.models as Entry)[0]!;
    expect(catalogueFigures({ baseUrl: lmstudio!.api as string }, localModel)).toBeUndefined();
    expect(catalogueFigures({ baseUrl: "http://192.168.1.20:8000/v1" }, "gpt-4o")).toBeUndefined();
  });

  test("an unknown endpoint without a vendor preset gets nothing: no guessing by model id across providers", () => {
    expect(catalogueFigures({ baseUrl: "https://llm.example.com/v1" }, "gpt-4o")).toBeUndefined();
    expect(catalogueFigures({ baseUrl: "not a url" }, "gpt-4o")).toBeUndefined();
  });

  test("a model the designated provider does not list gets nothing", () => {
    expect(
      catalogueFigures({ preset: "openai", baseUrl: "https://api.openai.com/v1" }, "no-such-model"),
    ).toBeUndefined();
    expect(
      catalogueFigures({ preset: "openai", baseUrl: "https://api.openai.com/v1" }, "claude-sonnet-4-5"),
    ).toBeUndefined();
  });

  test("a wire id differing only in case finds the entry", () => {
    expect(catalogueFigures({ preset: "openai", baseUrl: "" }, "GPT-4o")?.contextWindow).toBe(
      (entry("openai", "gpt-4o").limit as Entry).context as number,
    );
  });
});

describe("providers sharing an endpoint", () => {
  // MiniMax's pay-as-you-go and coding-plan entries share one API URL; the plan's prices are 0.
  const api = snapshotProvider("minimax")!.api as string;
  const shared = Object.keys(snapshotProvider("minimax")!.models as Entry).find((id) => {
    const plan = (snapshotProvider("minimax-coding-plan")!.models as Record<string, Entry>)[id];
    return plan !== undefined && JSON.stringify(plan.cost) !== JSON.stringify(entry("minimax", id).cost);
  })!;

  test("a figure both agree on is given; prices they differ on are not", () => {
    expect(snapshotProvider("minimax-coding-plan")!.api).toBe(api);
    const figures = catalogueFigures({ baseUrl: api }, shared);
    expect(figures?.providers).toEqual(["minimax", "minimax-coding-plan"]);
    expect(figures?.contextWindow).toBe((entry("minimax", shared).limit as Entry).context as number);
    expect(figures?.prices).toBeUndefined();
  });
});

describe("prices from a catalogue cost", () => {
  test("per million tokens, in Rienda's names", () => {
    expect(pricesOf({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 })).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
    expect(pricesOf({ input: 0, output: 0 })).toEqual({ input: 0, output: 0 });
  });

  test("context tiers become price tiers above their size; the older context_over_200k is a tier above 200,000", () => {
    const tier = { input: 6, output: 22.5, cache_read: 0.6, tier: { type: "context", size: 272000 } };
    expect(pricesOf({ input: 3, output: 15, tiers: [tier], context_over_200k: { input: 6, output: 22.5 } })).toEqual({
      input: 3,
      output: 15,
      tiers: [{ aboveTokens: 272000, input: 6, output: 22.5, cacheRead: 0.6 }],
    });
    expect(pricesOf({ input: 1, output: 2, context_over_200k: { input: 2, output: 4 } })).toEqual({
      input: 1,
      output: 2,
      tiers: [{ aboveTokens: 200000, input: 2, output: 4 }],
    });
  });

  test("a cost the rates cannot carry gives no prices: reasoning at its own rate, tiers by something else, no input or output", () => {
    expect(pricesOf({ input: 0.7, output: 2.8, reasoning: 8.4 })).toBeUndefined();
    expect(
      pricesOf({
        input: 1,
        output: 2,
        tiers: [{ input: 2, output: 4, reasoning: 9, tier: { type: "context", size: 1000 } }],
      }),
    ).toBeUndefined();
    expect(
      pricesOf({ input: 1, output: 2, tiers: [{ input: 2, output: 4, tier: { type: "time", size: 1 } }] }),
    ).toBeUndefined();
    expect(pricesOf({ input: 1 })).toBeUndefined();
    expect(pricesOf({ input: -1, output: 2 })).toBeUndefined();
    expect(pricesOf(undefined)).toBeUndefined();
    // Reasoning billed like output is just output.
    expect(pricesOf({ input: 1, output: 2, reasoning: 2 })).toEqual({ input: 1, output: 2 });
  });
});
