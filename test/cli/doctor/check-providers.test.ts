import { describe, expect, test } from "bun:test";
import { parseAgent, type Agent } from "../../../src/agents/index.ts";
import type { ProviderRow } from "../../../src/cli/shared/provider-rows.ts";
import { checkAgentModels, modelUsers } from "../../../src/cli/doctor/index.ts";
import {
  checkCredentialsFile,
  checkHiddenModules,
  checkProviderKeys,
  checkProviderModules,
  checkProvidersFolder,
} from "../../../src/cli/doctor/check-providers.ts";
import type { ProviderFacts } from "../../../src/cli/doctor/read-providers.ts";
import { DEFAULT_COMPACTION, parseConfig } from "../../../src/config/index.ts";

const DIR = "/home/ana/.rienda";
const CONFIG = `${DIR}/config.yaml`;
const CREDENTIALS = `${DIR}/credentials.json`;

function facts(name: string, row: Partial<ProviderRow>, extra: Partial<ProviderFacts> = {}): ProviderFacts {
  return {
    row: {
      name,
      origin: "module",
      source: `${DIR}/providers/${name}/index.js`,
      ready: false,
      needsNoKey: false,
      ...row,
    },
    hides: [],
    ...extra,
  };
}

function agent(id: string, model: string): Agent {
  return parseAgent(id, `---\ndescription: d\nmodel: ${model}\n---\nbody\n`, `${DIR}/agents/${id}.md`);
}

const acme = facts("acme", { key: "missing", models: 2 }, { aliases: ["big", "small"] });
const broken = facts("broken", { problem: 'provider "broken": base_url is required' });
const builtIn = facts("zai-coding-plan", {
  origin: "built-in",
  source: "(built-in) zai-coding-plan/index.js",
  problem: 'provider "zai-coding-plan": no models',
});

describe("provider modules", () => {
  test("a module of yours that fails is a problem naming its file; a built-in that fails is a warning", () => {
    const findings = checkProviderModules([acme, broken, builtIn]);
    expect(findings.map((f) => [f.severity, f.check, f.file, f.name, f.message])).toEqual([
      ["problem", "provider", `${DIR}/providers/broken/index.js`, "broken", 'provider "broken": base_url is required'],
      [
        "warning",
        "provider",
        "(built-in) zai-coding-plan/index.js",
        "zai-coding-plan",
        'provider "zai-coding-plan": no models',
      ],
    ]);
    expect(findings[0]!.hint).toStartWith(`fix ${DIR}/providers/broken/index.js`);
    expect(findings[1]!.hint).toContain("~/.rienda/providers/zai-coding-plan/index.js replaces the built-in");
  });

  test("a providers folder that cannot be listed is a problem on the folder", () => {
    expect(checkProvidersFolder({ path: `${DIR}/providers`, problems: [] })).toEqual([]);
    const [finding] = checkProvidersFolder({ path: `${DIR}/providers`, problems: ["is not a folder"] });
    expect(finding).toMatchObject({
      severity: "problem",
      check: "provider",
      file: `${DIR}/providers`,
      message: "is not a folder",
    });
    expect(finding!.hint).toContain("one folder each (<name>/index.js)");
  });

  test("a provider whose state is unknown (credentials.json damaged) is not reported as failing", () => {
    expect(checkProviderModules([facts("acme", {}, { unsettled: "credentials.json: is not valid JSON" })])).toEqual([]);
  });

  test("a module hidden by config.yaml's provider of its name is a warning on the module's file", () => {
    const openai = facts(
      "openai",
      { origin: "config", source: CONFIG, key: "config", ready: true, models: 1 },
      { hides: [{ name: "openai", origin: "module", path: `${DIR}/providers/openai/index.js` }] },
    );
    const [finding] = checkHiddenModules([openai, acme], CONFIG);
    expect(finding).toMatchObject({
      severity: "warning",
      check: "provider",
      file: `${DIR}/providers/openai/index.js`,
      name: "openai",
    });
    expect(finding!.message).toBe(
      `hidden by providers.openai in ${CONFIG}: runs on openai/... use config.yaml's provider`,
    );
  });
});

describe("keys", () => {
  test("a provider without a key is a problem when an agent uses it, nothing otherwise", () => {
    const users = modelUsers(
      [agent("coder", "acme/big"), agent("writer", "acme/small"), agent("other", "local/x")],
      DEFAULT_COMPACTION,
    );
    const [finding, ...rest] = checkProviderKeys(
      [acme, facts("unused", { key: "missing", models: 1 })],
      users,
      CREDENTIALS,
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: "problem", check: "provider", file: CREDENTIALS, name: "acme" });
    expect(finding!.message).toBe(
      'provider acme is not authenticated, and agent "coder" (acme/big), agent "writer" (acme/small) need it',
    );
    expect(finding!.hint).toBe("store its key: rienda auth set acme < keyfile (or rienda auth, on a terminal)");
    expect(
      checkProviderKeys([{ ...acme, row: { ...acme.row, key: "credentials", ready: true } }], users, CREDENTIALS),
    ).toEqual([]);
  });

  test("a credentials.json that cannot be read is a problem naming the file", () => {
    expect(checkCredentialsFile({ path: CREDENTIALS })).toEqual([]);
    const [finding] = checkCredentialsFile({ path: CREDENTIALS, problem: "is not valid JSON (Unexpected token)" });
    expect(finding).toMatchObject({
      severity: "problem",
      check: "credentials",
      file: CREDENTIALS,
      message: "is not valid JSON (Unexpected token)",
    });
    expect(finding!.hint).toContain("rienda auth");
    expect(checkCredentialsFile({ path: CREDENTIALS, problem: "cannot be read: permission denied" })[0]!.hint).toBe(
      `make it readable by you: chmod 600 ${CREDENTIALS}`,
    );
  });
});

describe("agents' models against provider modules", () => {
  const config = parseConfig("providers:\n  openai:\n    preset: openai\n    models: { gpt-4o: {} }\n", {
    path: CONFIG,
    env: {},
    home: "/home/ana",
  });
  const openai = facts(
    "openai",
    { origin: "config", source: CONFIG, key: "not needed", ready: true, models: 1 },
    { aliases: ["gpt-4o"] },
  );
  const all = [openai, acme, broken];

  test("a model a module offers gives no finding", () => {
    expect(checkAgentModels([agent("a", "acme/big"), agent("b", "openai/gpt-4o")], config, all)).toEqual([]);
  });

  test("a model a module does not offer lists its models; the choices name both generations", () => {
    const [finding] = checkAgentModels([agent("a", "acme/huge")], config, all);
    expect(finding!.message).toBe('unknown model "huge" in provider "acme" (models: big, small)');
    expect(finding!.hint).toBe(
      `change model: to one of openai/gpt-4o, acme/big, acme/small, or add "huge" to the models its module returns (${DIR}/providers/acme/index.js)`,
    );
  });

  test("a model of a module that fails points at the module", () => {
    const [finding] = checkAgentModels([agent("a", "broken/x")], config, all);
    expect(finding!.message).toBe(
      `provider "broken" does not load (${DIR}/providers/broken/index.js, see its own finding)`,
    );
  });

  test("an unknown provider names config.yaml's providers and the modules, and the one probably meant", () => {
    const [finding] = checkAgentModels([agent("a", "acm/big")], config, all);
    expect(finding!.message).toBe(
      `unknown provider "acm" (did you mean "acme"? providers in ${CONFIG}: openai; provider modules: acme, broken)`,
    );
  });

  test("a module whose state is unknown is left to the credentials.json finding", () => {
    expect(
      checkAgentModels([agent("a", "acme/x")], config, [openai, { ...acme, aliases: undefined, unsettled: "damaged" }]),
    ).toEqual([]);
  });
});
