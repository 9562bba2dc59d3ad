import { describe, expect, test } from "bun:test";
import { splitModelRef } from "../../src/config/index.ts";
import { SNAPSHOT_DATE } from "../../src/models-dev/index.ts";
import { RiendaError } from "../../src/errors.ts";
import { CONTRACT_EXAMPLE } from "./example-config.ts";
import { FILE, parse } from "./parse-helpers.ts";

const config = parse(CONTRACT_EXAMPLE, { OPENAI_API_KEY: "sk-env" });

function errorOf(ref: string): RiendaError {
  try {
    config.resolveModel(ref);
  } catch (error) {
    if (error instanceof RiendaError) return error;
  }
  throw new Error(`expected resolveModel("${ref}") to throw a RiendaError`);
}

describe("splitModelRef", () => {
  test("splits on the first slash; the alias keeps the rest", () => {
    expect(splitModelRef("openrouter/moonshotai/kimi-k2")).toEqual({
      provider: "openrouter",
      alias: "moonshotai/kimi-k2",
    });
  });

  test("refuses references without a provider or an alias", () => {
    for (const ref of ["gpt-4o", "/gpt-4o", "openai/", "", "/", " / "]) expect(splitModelRef(ref)).toBeUndefined();
  });

  test("trims around each half", () => {
    expect(splitModelRef(" openai / gpt-4o ")).toEqual({ provider: "openai", alias: "gpt-4o" });
  });
});

describe("resolveModel", () => {
  test("applies the preset's protocol and base URL and expands the api key", () => {
    expect(config.resolveModel("openai/gpt-4o")).toEqual({
      ref: "openai/gpt-4o",
      provider: "openai",
      alias: "gpt-4o",
      wireId: "gpt-4o",
      protocol: "openai_responses",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "sk-env",
      apiKeySource: {
        kind: "variables",
        path: "providers.openai.api_key",
        variables: [{ name: "OPENAI_API_KEY", state: "set" }],
      },
      timing: {
        keys: {
          timeout: "providers.openai.timeout",
          idleTimeout: "providers.openai.idle_timeout",
          retries: "providers.openai.retries",
        },
      },
      headers: {},
      // The openai preset's published price for gpt-4o (src/config/default-prices.ts).
      prices: { input: 2.5, output: 10, cacheRead: 1.25 },
      // config.yaml gives no context_window: the models.dev snapshot's figure, named as such.
      contextWindow: 128000,
      contextWindowSource: `the models.dev snapshot of ${SNAPSHOT_DATE}`,
    });
  });

  test("carries static headers and the session header", () => {
    const model = config.resolveModel("local/llama");
    expect(model.headers).toEqual({ "X-Title": "rienda" });
    expect(model.sessionHeader).toBe("X-Session-Id");
  });

  test("hands out its own copy of the headers", () => {
    config.resolveModel("local/llama").headers["X-Title"] = "changed";
    expect(config.resolveModel("local/llama").headers).toEqual({ "X-Title": "rienda" });
  });

  test('an unknown provider is `unknown provider "x"`, listing the configured ones', () => {
    const error = errorOf("x/gpt-4o");
    expect(error.code).toBe("config");
    expect(error.message).toBe(`unknown provider "x" (providers in ${FILE}: local, openai)`);
  });

  test('an unknown model is `unknown model "m" in provider "p"`, listing its models', () => {
    expect(errorOf("openai/gpt-5").message).toBe('unknown model "gpt-5" in provider "openai" (models: gpt-4o)');
  });

  test("an unknown model of a provider without models says so", () => {
    const empty = parse("providers:\n  p: { preset: openai }\n");
    expect(() => empty.resolveModel("p/x")).toThrow('unknown model "x" in provider "p" (it declares no models)');
  });

  test("a reference that is not provider/alias is refused", () => {
    expect(errorOf("gpt-4o").message).toBe('model reference "gpt-4o" must have the form provider/alias');
  });

  test("an alias containing slashes resolves (split on the first slash)", () => {
    const text =
      "providers:\n  or:\n    preset: openrouter\n    models:\n      moonshotai/kimi-k2: {}\n      kimi: { id: moonshotai/kimi-k2 }\n";
    const or = parse(text);
    expect(or.resolveModel("or/moonshotai/kimi-k2").alias).toBe("moonshotai/kimi-k2");
    expect(or.resolveModel("or/kimi").wireId).toBe("moonshotai/kimi-k2");
  });

  test("modelRefs lists every provider/alias", () => {
    expect(config.modelRefs()).toEqual(["local/llama", "openai/gpt-4o"]);
  });
});
