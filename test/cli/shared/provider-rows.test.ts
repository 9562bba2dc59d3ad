import { describe, expect, test } from "bun:test";
import type { ProviderSettings } from "../../../src/config/index.ts";
import { authJson, formatAuthTable } from "../../../src/cli/auth/format-list.ts";
import { keyWords, modelCount, pendingRow, providerRow, rowMark } from "../../../src/cli/shared/provider-rows.ts";
import type { ProviderListing, ProviderState } from "../../../src/roster/index.ts";

const CONFIG = "/home/ana/.rienda/config.yaml";

function listing(name: string, origin: ProviderListing["origin"] = "module"): ProviderListing {
  return {
    name,
    origin,
    source: origin === "config" ? CONFIG : `/home/ana/.rienda/providers/${name}/index.js`,
    hides: [],
  };
}

function settings(overrides: Partial<ProviderSettings>, models = 2): ProviderSettings {
  const table = new Map(Array.from({ length: models }, (_, i) => [`m${i}`, {}]));
  return {
    apiKey: "",
    apiKeySource: { kind: "absent", path: "api_key" },
    models: table,
    ...overrides,
  } as unknown as ProviderSettings;
}

function ready(
  name: string,
  key: Extract<ProviderState, { kind: "ready" }>["key"],
  overrides: Partial<ProviderSettings> = {},
  origin: ProviderListing["origin"] = "module",
  models = 2,
): ProviderState {
  return { kind: "ready", listing: listing(name, origin), settings: settings(overrides, models), key };
}

const nothingStored = () => false;

describe("a provider's row", () => {
  test("a module with auth api_key: missing until credentials.json holds its key, read now (not as the roster first read it)", () => {
    const state = ready("acme", "missing", { auth: "api_key" });
    const before = providerRow(state, nothingStored);
    expect(before).toMatchObject({
      name: "acme",
      origin: "module",
      key: "missing",
      ready: false,
      models: 2,
      needsNoKey: false,
    });
    expect([rowMark(before), keyWords(before), modelCount(before)]).toEqual(["—", "missing", "2 models"]);
    const after = providerRow(state, (name) => name === "acme");
    expect([rowMark(after), keyWords(after), after.ready]).toEqual(["✓", "credentials.json", true]);
  });

  test("a module with auth none needs no key, and says so, even with a key stored under its name", () => {
    const row = providerRow(ready("local", "not needed", { auth: "none" }, "module", 1), nothingStored);
    expect(row).toMatchObject({ key: "not needed", ready: true, needsNoKey: true });
    expect(providerRow(ready("local", "not needed", { auth: "none" }, "module", 1), () => true)).toMatchObject({
      key: "not needed",
    });
    expect([rowMark(row), keyWords(row), modelCount(row)]).toEqual(["✓", "not needed", "1 model"]);
  });

  test("a config.yaml provider without api_key: optional, taken from credentials.json when stored", () => {
    const state = ready("openai", "not needed", {}, "config");
    expect(providerRow(state, nothingStored)).toMatchObject({ key: "not needed", ready: true, needsNoKey: false });
    expect(providerRow(state, () => true)).toMatchObject({ key: "credentials", ready: true });
  });

  test("config.yaml's api_key wins over a stored key; an unset variable in it makes the row not ready, saying which", () => {
    const written = ready(
      "openai",
      "config",
      { apiKey: "sk-x", apiKeySource: { kind: "written", path: "providers.openai.api_key" } },
      "config",
    );
    expect(providerRow(written, () => true)).toMatchObject({ key: "config", ready: true });
    const unset = ready(
      "openai",
      "config",
      {
        apiKey: "",
        apiKeySource: {
          kind: "variables",
          path: "providers.openai.api_key",
          variables: [{ name: "OPENAI_API_KEY", state: "unset" }],
        },
      },
      "config",
    );
    const row = providerRow(unset, () => true);
    expect(row).toMatchObject({
      key: "config",
      ready: false,
      problem: "providers.openai.api_key in config.yaml is empty: OPENAI_API_KEY is not set",
    });
    expect(rowMark(row)).toBe("—");
  });

  test("a module that failed: its problem line, no key state, no model count", () => {
    const row = providerRow(
      { kind: "failed", listing: listing("broken"), problem: 'provider "broken": base_url is required' },
      () => true,
    );
    expect([row.key, row.ready, row.models, row.problem]).toEqual([
      undefined,
      false,
      undefined,
      'provider "broken": base_url is required',
    ]);
    expect([rowMark(row), keyWords(row), modelCount(row)]).toEqual(["!", "-", "-"]);
  });

  test("a module not evaluated yet", () => {
    expect(rowMark(pendingRow(listing("slow")))).toBe("…");
  });
});

describe("auth list's forms", () => {
  const rows = [
    providerRow(
      ready(
        "openai",
        "config",
        { apiKey: "sk-x", apiKeySource: { kind: "written", path: "providers.openai.api_key" } },
        "config",
        3,
      ),
      nothingStored,
    ),
    providerRow(ready("acme", "missing", { auth: "api_key" }, "module", 12), nothingStored),
    providerRow(
      { kind: "failed", listing: listing("broken"), problem: 'provider "broken": base_url is required' },
      nothingStored,
    ),
  ];

  test("the table: a header, one aligned line per provider, the problem last", () => {
    expect(formatAuthTable(rows)).toBe(
      [
        "PROVIDER  KEY  FROM         MODELS  PROBLEM",
        "openai    ✓    config.yaml  3",
        "acme      —    missing      12",
        'broken    !    -            -       provider "broken": base_url is required',
        "",
      ].join("\n"),
    );
    expect(formatAuthTable([rows[1]!])).toBe("PROVIDER  KEY  FROM     MODELS\nacme      —    missing  12\n");
    expect(formatAuthTable([])).toBe("");
  });

  test("the JSON object", () => {
    expect(JSON.parse(authJson(rows, "/home/ana/.rienda/credentials.json", ["gone"]))).toEqual({
      credentials: "/home/ana/.rienda/credentials.json",
      providers: [
        { name: "openai", origin: "config", source: CONFIG, key: "config", ready: true, models: 3, problem: null },
        {
          name: "acme",
          origin: "module",
          source: "/home/ana/.rienda/providers/acme/index.js",
          key: "missing",
          ready: false,
          models: 12,
          problem: null,
        },
        {
          name: "broken",
          origin: "module",
          source: "/home/ana/.rienda/providers/broken/index.js",
          key: null,
          ready: false,
          models: null,
          problem: 'provider "broken": base_url is required',
        },
      ],
      unused_keys: ["gone"],
    });
  });
});
