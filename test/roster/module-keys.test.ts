import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig, type ProviderSettings } from "../../src/config/index.ts";
import { createRoster, type ModuleSource } from "../../src/roster/index.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A roster with no config.yaml provider and one module `m` declaring `auth`; credentials.json holds a key of `m`. */
function rosterWith(auth: "api_key" | "none") {
  dir = mkdtempSync(join(tmpdir(), "roster-"));
  const credentials = join(dir, "credentials.json");
  writeFileSync(credentials, JSON.stringify({ m: { api_key: "stored" } }));
  const base = parseConfig(
    "providers:\n  x:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    models: { a: {} }\n",
    { path: join(dir, "c.yaml"), env: {}, home: dir },
  );
  const settings: ProviderSettings = { ...base.providers.get("x")!, name: "m", origin: "module", auth };
  const modules: ModuleSource = {
    list: () => [{ name: "m", origin: "module", path: join(dir, "m/index.js") }],
    evaluate: async () => ({ provider: settings }),
  };
  const config = parseConfig("compaction: { enabled: false }\n", {
    path: join(dir, "config.yaml"),
    env: {},
    home: dir,
  });
  return createRoster({ config, modules, credentialsPath: credentials });
}

describe("a module's key", () => {
  test("auth api_key takes credentials.json's key of its name", async () => {
    const roster = rosterWith("api_key");
    expect(await roster.provider("m")).toMatchObject({ kind: "ready", key: "credentials" });
    expect((await roster.resolve("m/a")).apiKey).toBe("stored");
  });

  test("auth none sends no key, even one stored under its name", async () => {
    const roster = rosterWith("none");
    expect(await roster.provider("m")).toMatchObject({ kind: "ready", key: "not needed" });
    expect((await roster.resolve("m/a")).apiKey).toBe("");
  });
});
