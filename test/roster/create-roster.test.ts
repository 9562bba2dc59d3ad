import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig, type ProviderSettings } from "../../src/config/index.ts";
import { chooseModel, createRoster, type ModuleSource, type ProviderModuleEntry } from "../../src/roster/index.ts";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rienda-roster-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG =
  "providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    models:\n      m: { id: wire-m }\n";
const config = (text = CONFIG) => parseConfig(text, { path: "/h/.rienda/config.yaml", env: {}, home: "/h" });

/** A module provider as provider-modules/ would give it. */
function declared(name: string, auth: "api_key" | "none", ids: string[]): ProviderSettings {
  const models = new Map(
    ids.map((id) => [
      id,
      { alias: id, id, timing: {}, reasoning: true, thinkingModes: [{ level: "high", maxTokens: 2048 }] },
    ]),
  );
  return {
    name,
    protocol: "anthropic",
    baseUrl: "http://127.0.0.1:9",
    apiKey: "",
    headers: { "X-A": "1" },
    models,
    unset: [],
    timing: {},
    apiKeySource: { kind: "absent", path: "credentials.json" },
    auth,
  };
}

/** Modules answered from a table; records which ones were evaluated. */
function modules(table: Record<string, ProviderSettings | string>): ModuleSource & { evaluated: string[] } {
  const evaluated: string[] = [];
  const entries: ProviderModuleEntry[] = Object.keys(table).map((name) => ({
    name,
    origin: name === "builtin" ? "built-in" : "module",
    path: `/h/.rienda/providers/${name}/index.js`,
  }));
  return {
    evaluated,
    list: () => entries,
    evaluate: async (entry) => {
      evaluated.push(entry.name);
      const answer = table[entry.name]!;
      return typeof answer === "string" ? { problem: answer } : { provider: answer };
    },
  };
}

describe("the roster", () => {
  test("a config.yaml model evaluates no module; a module model evaluates that module only, once", async () => {
    const source = modules({ acme: declared("acme", "none", ["a1"]), other: declared("other", "none", ["o1"]) });
    const roster = createRoster({ config: config(), modules: source, credentialsPath: join(dir, "credentials.json") });
    expect((await roster.resolve("p/m")).wireId).toBe("wire-m");
    expect(source.evaluated).toEqual([]);
    const model = await roster.resolve("acme/a1");
    await roster.resolve("acme/a1");
    expect(source.evaluated).toEqual(["acme"]);
    expect(model).toMatchObject({
      ref: "acme/a1",
      wireId: "a1",
      protocol: "anthropic",
      requestRules: "as_written",
      reasoning: true,
      thinkingModes: [{ level: "high", maxTokens: 2048 }],
      declaredIn: "/h/.rienda/providers/acme/index.js",
    });
  });

  test("keys: credentials.json for a module and for a config.yaml provider without api_key; a module with auth api_key and none is not authenticated", async () => {
    const path = join(dir, "credentials.json");
    writeFileSync(path, JSON.stringify({ acme: { api_key: "sk-a" }, p: { api_key: "sk-p" } }));
    const roster = createRoster({
      config: config(),
      modules: modules({ acme: declared("acme", "api_key", ["a1"]), bare: declared("bare", "api_key", ["b1"]) }),
      credentialsPath: path,
    });
    expect(await roster.resolve("acme/a1")).toMatchObject({
      apiKey: "sk-a",
      apiKeySource: { kind: "credentials", path, provider: "acme" },
    });
    expect(await roster.resolve("p/m")).toMatchObject({ apiKey: "sk-p" });
    await expect(roster.resolve("bare/b1")).rejects.toThrow("provider bare is not authenticated; run rienda auth");
    expect(await roster.offers("bare/b1")).toBe(false);
    expect(await roster.models()).toEqual(["acme/a1", "p/m"]);
  });

  test("config.yaml wins over a module of the same name, and says whom it hides", async () => {
    const source = modules({ p: declared("p", "none", ["x"]) });
    const roster = createRoster({ config: config(), modules: source, credentialsPath: join(dir, "c.json") });
    expect(roster.listings()).toEqual([
      {
        name: "p",
        origin: "config",
        source: "/h/.rienda/config.yaml",
        hides: [{ name: "p", origin: "module", path: "/h/.rienda/providers/p/index.js" }],
      },
    ]);
    expect((await roster.resolve("p/m")).wireId).toBe("wire-m");
    expect(source.evaluated).toEqual([]);
  });

  test("a failed module is its problem line, never hides the others, and is listed among problems", async () => {
    const roster = createRoster({
      config: config(),
      modules: modules({ bad: 'provider "bad": base_url is required', acme: declared("acme", "none", ["a1"]) }),
      credentialsPath: join(dir, "c.json"),
    });
    await expect(roster.resolve("bad/x")).rejects.toThrow('provider "bad": base_url is required');
    expect(await roster.models()).toEqual(["acme/a1", "p/m"]);
    expect(await roster.problems()).toEqual(['provider "bad": base_url is required']);
  });

  test("an unknown provider names config.yaml's and the modules', with a suggestion", async () => {
    const roster = createRoster({
      config: config(),
      modules: modules({ acme: declared("acme", "none", ["a1"]) }),
      credentialsPath: join(dir, "c.json"),
    });
    await expect(roster.resolve("acm/a1")).rejects.toThrow(
      'unknown provider "acm" (did you mean "acme"? providers in /h/.rienda/config.yaml: p; provider modules: acme)',
    );
  });
});

describe("chooseModel", () => {
  const roster = (table: Record<string, ProviderSettings | string>, text?: string) =>
    createRoster({ config: config(text), modules: modules(table), credentialsPath: join(dir, "c.json") });

  test("state.json's last_model when offered, else the only model, else an error naming -m and the models", async () => {
    expect(
      await chooseModel(
        roster({ acme: declared("acme", "none", ["a1"]) }),
        { lastModel: "acme/a1", lastThinking: {} },
        "bot",
      ),
    ).toBe("acme/a1");
    expect(await chooseModel(roster({}), { lastModel: "gone/x", lastThinking: {} }, "bot")).toBe("p/m");
    await expect(
      chooseModel(roster({ acme: declared("acme", "none", ["a1", "a2"]) }), { lastThinking: {} }, "bot"),
    ).rejects.toThrow('agent "bot" names no model: choose one with -m provider/model (offered: acme/a1, acme/a2, p/m)');
  });

  test("nothing offered says how to declare a provider", async () => {
    await expect(chooseModel(roster({}, "compaction: {}\n"), { lastThinking: {} }, "bot")).rejects.toThrow(
      'agent "bot" names no model, and no provider offers one',
    );
  });
});
