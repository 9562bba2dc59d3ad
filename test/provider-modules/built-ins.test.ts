/**
 * The built-in modules opencode-go and zai-coding-plan (go-current.md §3),
 * run as they ship (builtin/*.cjs in the real runtime) against a scripted
 * models.dev, and offline with and without the snapshot shipped in Rienda.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ProviderSettings } from "../../src/config/index.ts";
import { evaluateProviderModule, type CatalogueSnapshot, type Evaluation } from "../../src/provider-modules/index.ts";
import { CatalogueServer, catalogueFragment, unreachableUrl } from "./catalogue-server.ts";
import { providerOf, providersFixture } from "./support.ts";

const fx = providersFixture();
let server: CatalogueServer;
beforeAll(async () => {
  server = await new CatalogueServer().start();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.serve(catalogueFragment());
  process.env.RIENDA_MODELS_DEV_URL = server.url;
});
afterEach(() => {
  delete process.env.RIENDA_MODELS_DEV_URL;
});

const NO_SNAPSHOT: CatalogueSnapshot = { date: "", provider: () => undefined };

function evaluateBuiltIn(name: string, snapshot: CatalogueSnapshot = NO_SNAPSHOT): Promise<Evaluation> {
  const entry = fx.home.list().modules.find((m) => m.name === name);
  if (entry?.origin !== "built-in") throw new Error(`${name} is not a built-in here`);
  return evaluateProviderModule(entry, {
    runtime: fx.runtime,
    configDocument: {},
    riendaDir: fx.home.riendaDir,
    signal: new AbortController().signal,
    log: (text) => fx.home.logs.push(text),
    snapshot,
  });
}

/** Each model as one line: id, protocol, window, output cap, levels. */
function rosterLines(provider: ProviderSettings): string[] {
  return [...provider.models.values()].map((m) =>
    [
      m.id,
      m.name,
      m.overrides?.protocol,
      m.contextWindow,
      m.maxOutputTokens ?? "-",
      m.reasoning
        ? `levels[${(m.thinkingModes ?? []).map((t) => `${t.level}:${t.maxTokens}`).join(",")}]`
        : "no-reasoning",
    ].join(" "),
  );
}

const OPENCODE_GO_ROSTER = [
  "glm-5.2 GLM-5.2 openai_chat_completions 204800 131072 levels[]",
  "gpt-oss-120b GPT OSS 120B openai_responses 131072 - no-reasoning",
  "kimi-k2.6 Kimi K2.6 openai_chat_completions 262144 65536 levels[low:0,medium:0,high:0]",
  "minimax-m3 MiniMax M3 anthropic 1000000 - levels[low:0,high:0]",
];

describe("with models.dev reachable", () => {
  test("opencode-go: chat completions at opencode.ai with its session header; the roster converted from its models.dev entry", async () => {
    const provider = providerOf(await evaluateBuiltIn("opencode-go"));
    expect({ ...provider, models: undefined }).toEqual({
      name: "opencode-go",
      protocol: "openai_chat_completions",
      baseUrl: "https://opencode.ai/zen/go/v1",
      sessionHeader: "x-opencode-session",
      apiKey: "",
      headers: {},
      models: undefined,
      unset: [],
      timing: {},
      apiKeySource: { kind: "absent", path: "credentials.json" },
      origin: "built-in",
      auth: "api_key",
    });
    // Adapters -> protocols (a model's own provider.npm first), alpha/beta/deprecated, unknown adapters and unknown windows left out, levels from the effort option.
    expect(rosterLines(provider)).toEqual(OPENCODE_GO_ROSTER);
    expect(server.requests).toEqual(["GET /api.json"]);
    expect(fx.home.logs).toEqual([]);
  });

  test("zai-coding-plan: its address and roster from its models.dev entry", async () => {
    const provider = providerOf(await evaluateBuiltIn("zai-coding-plan"));
    expect([provider.protocol, provider.baseUrl, provider.sessionHeader, provider.auth, provider.origin]).toEqual([
      "openai_chat_completions",
      "https://api.z.ai/api/coding/paas/v4",
      undefined,
      "api_key",
      "built-in",
    ]);
    expect(rosterLines(provider)).toEqual([
      "glm-4.5-air GLM-4.5-Air openai_chat_completions 131072 98304 no-reasoning",
      "glm-4.7 GLM-4.7 openai_chat_completions 204800 131072 levels[]",
    ]);
  });

  test("a user module of the same name replaces the built-in entirely: the built-in does not run", async () => {
    fx.home.declaring("opencode-go", {
      protocol: "anthropic",
      base_url: "https://mirror.test",
      auth: "none",
      models: [{ id: "mine", context_window: 1000 }],
    });
    const entry = fx.home.entry("opencode-go");
    const provider = providerOf(
      await evaluateProviderModule(entry, {
        runtime: fx.runtime,
        configDocument: {},
        riendaDir: fx.home.riendaDir,
        signal: new AbortController().signal,
        log: (text) => fx.home.logs.push(text),
      }),
    );
    expect([provider.origin, provider.protocol, [...provider.models.keys()]]).toEqual([
      "module",
      "anthropic",
      ["mine"],
    ]);
    expect(server.requests).toEqual([]);
  });
});

describe("the cache (ctx.cache, 4 hours)", () => {
  const cacheFile = (entry: string) => join(fx.home.riendaDir, "cache", `${entry}.json`);
  const readCache = (entry: string) =>
    JSON.parse(readFileSync(cacheFile(entry), "utf8")) as { expires_at: string; payload: string };
  const writeCache = (entry: string, expiresAt: string, value: unknown) => {
    mkdirSync(join(fx.home.riendaDir, "cache"), { recursive: true });
    writeFileSync(
      cacheFile(entry),
      JSON.stringify({ expires_at: expiresAt, payload: typeof value === "string" ? value : JSON.stringify(value) }),
    );
  };
  const LIVE = "2999-01-01T00:00:00Z";
  const EXPIRED = "2020-01-01T00:00:00Z";
  /** The fragment with opencode-go offering only the model `id`. */
  const onlyModel = (id: string) => {
    const catalogue = catalogueFragment() as Record<string, { models: Record<string, unknown> }>;
    const plan = catalogue["opencode-go"]!;
    plan.models = { [id]: { ...(plan.models["kimi-k2.6"] as object), id } };
    return catalogue;
  };
  const modelIds = async () => [...providerOf(await evaluateBuiltIn("opencode-go")).models.keys()];

  test("a fetched catalogue is cached whole as models.dev (the Go program's entry, shared by both built-ins) and each provider's entry alone", async () => {
    const before = Date.now();
    await evaluateBuiltIn("opencode-go");
    await evaluateBuiltIn("zai-coding-plan");
    expect(server.requests).toEqual(["GET /api.json"]);
    const whole = readCache("models.dev");
    expect(whole.payload).toBe(JSON.stringify(catalogueFragment()));
    const lives = (Date.parse(whole.expires_at) - before) / 1000;
    expect(lives).toBeGreaterThanOrEqual(4 * 3600 - 60);
    expect(lives).toBeLessThanOrEqual(4 * 3600 + 60);
    for (const name of ["opencode-go", "zai-coding-plan"]) {
      expect(JSON.parse(readCache(`models.dev.${name}`).payload)).toEqual(catalogueFragment()[name]);
    }
  });

  test("a live entry is used without a request: the provider's own first, then the whole catalogue; expired ones are fetched again", async () => {
    writeCache("models.dev", LIVE, onlyModel("from-the-catalogue"));
    expect(await modelIds()).toEqual(["from-the-catalogue"]);
    expect(JSON.parse(readCache("models.dev.opencode-go").payload)).toEqual(
      onlyModel("from-the-catalogue")["opencode-go"],
    );
    writeCache("models.dev.opencode-go", LIVE, onlyModel("its-own")["opencode-go"]);
    expect(await modelIds()).toEqual(["its-own"]);
    expect(server.requests).toEqual([]);
    writeCache("models.dev", EXPIRED, onlyModel("from-the-catalogue"));
    writeCache("models.dev.opencode-go", EXPIRED, onlyModel("its-own")["opencode-go"]);
    expect(rosterLines(providerOf(await evaluateBuiltIn("opencode-go")))).toEqual(OPENCODE_GO_ROSTER);
    expect(server.requests).toEqual(["GET /api.json"]);
  });

  test("an entry that is not JSON is read again from further down, with a line saying so", async () => {
    writeCache("models.dev", LIVE, "not json");
    expect(rosterLines(providerOf(await evaluateBuiltIn("opencode-go")))).toEqual(OPENCODE_GO_ROSTER);
    expect(fx.home.logs).toHaveLength(1);
    expect(fx.home.logs[0]).toStartWith("opencode-go: the cache entry models.dev cannot be used (");
    expect(server.requests).toEqual(["GET /api.json"]);
  });

  test("the snapshot is never cached: the next start tries models.dev again", async () => {
    process.env.RIENDA_MODELS_DEV_URL = await unreachableUrl();
    await evaluateBuiltIn("opencode-go", {
      date: "2026-03-01",
      provider: (id) => catalogueFragment()[id] as Record<string, unknown> | undefined,
    });
    expect(existsSync(join(fx.home.riendaDir, "cache"))).toBe(false);
  });
});

describe("with models.dev out of reach", () => {
  const snapshot: CatalogueSnapshot = {
    date: "2026-03-01",
    provider: (id) => catalogueFragment()[id] as Record<string, unknown> | undefined,
  };

  test("the snapshot shipped in Rienda gives the roster, silently", async () => {
    const url = await unreachableUrl();
    process.env.RIENDA_MODELS_DEV_URL = url;
    const provider = providerOf(await evaluateBuiltIn("opencode-go", snapshot));
    expect(rosterLines(provider)).toEqual(OPENCODE_GO_ROSTER);
    expect(fx.home.logs).toEqual([]);
  });

  test("an HTTP error or a catalogue that is not JSON counts as out of reach", async () => {
    server.answer = { status: 503, body: "maintenance" };
    expect(rosterLines(providerOf(await evaluateBuiltIn("opencode-go", snapshot)))).toEqual(OPENCODE_GO_ROSTER);
    server.answer = { status: 200, body: "<html>captive portal</html>" };
    expect(providerOf(await evaluateBuiltIn("zai-coding-plan", snapshot)).baseUrl).toBe(
      "https://api.z.ai/api/coding/paas/v4",
    );
    expect(fx.home.logs).toEqual([]);
  });

  test("without a snapshot: opencode-go declares no models (as the Go program), zai-coding-plan is skipped for want of an address", async () => {
    process.env.RIENDA_MODELS_DEV_URL = await unreachableUrl();
    const opencode = providerOf(await evaluateBuiltIn("opencode-go"));
    expect([opencode.baseUrl, opencode.models.size]).toEqual(["https://opencode.ai/zen/go/v1", 0]);
    expect(fx.home.logs[0]).toEndWith(
      "and Rienda ships no catalogue of opencode-go: no models until models.dev can be reached",
    );
    expect(await evaluateBuiltIn("zai-coding-plan")).toEqual({
      problem: `provider "zai-coding-plan": module threw: models.dev gives no address (api) for zai-coding-plan; it is tried again at the next start`,
    });
  });

  test("a catalogue without the provider's entry gives no models", async () => {
    server.serve({ anthropic: { id: "anthropic", models: {} } });
    expect(providerOf(await evaluateBuiltIn("opencode-go", snapshot)).models.size).toBe(0);
    expect(fx.home.logs).toEqual([`opencode-go: the models.dev catalogue has no entry "opencode-go"`]);
  });
});
