/**
 * `rienda doctor` on throwaway HOMEs: healthy right after `rienda init` and
 * with the examples installed; each kind of problem reported with its file
 * and a fix, exit 1; warnings alone keep exit 0; `--json`; and that it
 * neither sends a model request nor writes a file.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { matchesShown } from "../support/doc-blocks.ts";
import { Instance, type RunResult } from "../support/instance.ts";
import { scenario } from "../support/scenario.ts";
import { startCatalogue, type Catalogue } from "../support/models-dev.ts";

const EXAMPLES = resolve(import.meta.dir, "../../examples");
/** No provider key and no config override may leak in from the machine running the tests. */
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined };

// A server elsewhere: doctor asks only servers on this machine for their models (test/local covers those).
const GOOD_CONFIG =
  "providers:\n  local:\n    preset: ollama\n    base_url: https://ollama.example.com/v1\n    models:\n      llama: {}\n";
const GOOD_TOOL =
  'module.exports = { description: "Says hi.", parameters: { type: "object" }, execute() { return "hi"; } };\n';

interface JsonFinding {
  severity: string;
  check: string;
  file: string;
  key: string | null;
  line: number | null;
  name: string | null;
  message: string;
  hint: string;
}
interface JsonReport {
  healthy: boolean;
  problems: JsonFinding[];
  warnings: JsonFinding[];
  checked: {
    config: string;
    configLoaded: boolean;
    configPresent: boolean;
    providers: unknown[];
    agents: string[];
    tools: string[];
    hooks: string[];
    skills: string[];
    workspace: string;
    instructions: string | null;
    contextWindows: unknown[];
  };
}

/** The built-in modules' models.dev (opencode-go: 3 models, zai-coding-plan: 2), so that doctor reads no network. */
let catalogue: Catalogue;
beforeAll(async () => {
  catalogue = await startCatalogue();
});
afterAll(() => catalogue.close());
const MODELS_DEV = () => ({ RIENDA_MODELS_DEV_URL: catalogue.url });
/** The header lines of the built-in modules, as the test catalogue makes them. */
const BUILT_INS =
  "              opencode-go (built-in): no key (rienda auth), 3 models\n              zai-coding-plan (built-in): no key (rienda auth), 2 models\n";

let inst: Instance;
beforeEach(() => {
  inst = new Instance();
});
afterEach(() => inst.dispose());

const doctor = (args: string[] = [], env: Record<string, string | undefined> = {}) =>
  inst.run(["doctor", ...args], { env: { ...CLEAN_ENV, ...MODELS_DEV(), ...env } });

async function doctorJson(
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<{ r: RunResult; report: JsonReport }> {
  const r = await doctor(["--json", ...args], env);
  return { r, report: JSON.parse(r.stdout) as JsonReport };
}

function agent(id: string, frontmatter: string): string {
  return inst.agent(id, `---\ndescription: A test agent.\n${frontmatter}\n---\nBe brief.\n`);
}

/** The last line of the plain report. */
function summary(r: RunResult): string {
  return r.stdout.trimEnd().split("\n").at(-1)!;
}

describe("rienda doctor: healthy setups", () => {
  test("right after rienda init: healthy, exit 0, unused provider keys only warned about", async () => {
    rmSync(inst.riendaPath(), { recursive: true, force: true });
    expect((await inst.run(["init"], { env: CLEAN_ENV })).code).toBe(0);
    const r = await doctor();
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`config        ${inst.riendaPath("config.yaml")}\n`);
    expect(r.stdout).toContain("agents        starter\n");
    expect(r.stdout).toContain("tools         shell, word-count\n");
    expect(r.stdout).toContain(
      `warning: ${inst.riendaPath("config.yaml")}: providers.openai.api_key: environment variable OPENAI_API_KEY is not set; nothing uses provider "openai" yet\n` +
        `  fix: set OPENAI_API_KEY before using openai, or remove the provider "openai" from ${inst.riendaPath("config.yaml")}\n`,
    );
    expect(r.stdout).toContain("ANTHROPIC_API_KEY is not set");
    expect(r.stdout).not.toContain("problem:");
    expect(summary(r)).toBe("healthy (2 warnings)");
  });

  test("after rienda init with the keys set: healthy and nothing to warn about", async () => {
    await inst.run(["init"], { env: CLEAN_ENV });
    const r = await doctor([], { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("warning:");
    expect(summary(r)).toBe("healthy");
  });

  test("with the examples installed: every tool, hook and skill loads, healthy", async () => {
    for (const dir of ["agents", "tools", "hooks", "replay", "skills"])
      cpSync(join(EXAMPLES, dir), inst.riendaPath(dir), { recursive: true });
    inst.config(readFileSync(join(EXAMPLES, "config.yaml"), "utf8"));
    cpSync(join(EXAMPLES, "workspace"), inst.workspace, { recursive: true });
    const { r, report } = await doctorJson();
    expect(r.code).toBe(0);
    expect(report.problems).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.healthy).toBe(true);
    expect(report.checked.agents).toEqual(["demo", "lead", "reviewer", "writer"]);
    expect(report.checked.tools).toEqual(["json-field", "publish", "release-tag", "shell", "word-count"]);
    expect(report.checked.hooks).toEqual(["date", "guard", "redact"]);
    expect(report.checked.skills).toEqual(["release-notes"]);
  });
});

describe("rienda doctor: the config", () => {
  test("a missing ~/.rienda/config.yaml is no problem (it is optional); an agent's model is checked against the providers there are", async () => {
    agent("coder", "model: local/llama");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toStartWith(
      `config        ${inst.riendaPath("config.yaml")} (none: it is optional)\nproviders     ${BUILT_INS.trimStart()}agents        coder\n`,
    );
    expect(r.stdout).toContain(
      `problem: ${inst.riendaPath("agents/coder.md")}: model: unknown provider "local" (provider modules: opencode-go, zai-coding-plan; there is no ${inst.riendaPath("config.yaml")}: "rienda init" writes a starter one)\n` +
        `  fix: change model: to one of opencode-go/go-large, opencode-go/go-medium, opencode-go/go-small, zai-coding-plan/glm-4.5-air, zai-coding-plan/glm-4.6, or add a provider "local" with a model "llama" to ${inst.riendaPath("config.yaml")}, or a provider module ~/.rienda/providers/local/index.js\n`,
    );
    expect(r.stdout).not.toContain("no configuration file here");
    expect(summary(r)).toBe("1 problem, 0 warnings");
  });

  test("a missing --config file says which path was given", async () => {
    inst.config(GOOD_CONFIG);
    const r = await doctor(["--config", "nowhere.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${join(inst.workspace, "nowhere.yaml")}: no configuration file here\n  fix: check the path given with --config`,
    );
  });

  test("a YAML syntax error: the file, the line and a fix", async () => {
    inst.config("providers:\n  local:\n    preset: ollama\n   models: {}\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `problem: ${inst.riendaPath("config.yaml")}: line \\d+, column \\d+: .+\\n  fix: fix the YAML syntax at that line and column\\n`,
      ),
    );
  });

  test("an unknown key: the key path, its line and the fix; every problem is listed", async () => {
    inst.config(
      "providers:\n  local:\n    preset: ollama\n    modles: {}\n    models: { llama: { temperature: 7 } }\n",
    );
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${inst.riendaPath("config.yaml")}:4: providers.local.modles: unknown key (did you mean "models"?`,
    );
    expect(r.stdout).toContain('  fix: remove the key "providers.local.modles" or correct its spelling');
    expect(r.stdout).toContain("providers.local.models.llama.temperature: must be");
    expect(summary(r)).toBe("2 problems, 0 warnings");
  });

  test("an unset key an agent's model needs is a problem; the same key unused is a warning", async () => {
    inst.config(`${GOOD_CONFIG}  cloud:\n    preset: openai\n    api_key: \${CLOUD_KEY}\n    models:\n      big: {}\n`);
    agent("coder", "model: local/llama");
    const unused = await doctorJson();
    expect(unused.r.code).toBe(0);
    expect(unused.report.warnings).toEqual([
      {
        severity: "warning",
        check: "config",
        file: inst.riendaPath("config.yaml"),
        key: "providers.cloud.api_key",
        line: null,
        name: "CLOUD_KEY",
        message: 'environment variable CLOUD_KEY is not set; nothing uses provider "cloud" yet',
        hint: `set CLOUD_KEY before using cloud, or remove the provider "cloud" from ${inst.riendaPath("config.yaml")}`,
      },
    ]);

    agent("writer", "model: cloud/big");
    const used = await doctor();
    expect(used.code).toBe(1);
    expect(used.stdout).toContain(
      `problem: ${inst.riendaPath("config.yaml")}: providers.cloud.api_key: environment variable CLOUD_KEY is not set, and agent "writer" (cloud/big) needs it\n` +
        '  fix: set CLOUD_KEY (export CLOUD_KEY=...) before running, or give agent "writer" a model of another provider\n',
    );

    const set = await doctor([], { CLOUD_KEY: "k" });
    expect(set.code).toBe(0);
    expect(summary(set)).toBe("healthy");
  });

  test("a replay script that is gone: a problem for the agent using it, with rienda init as a fix", async () => {
    await inst.run(["init"], { env: CLEAN_ENV });
    rmSync(inst.riendaPath("replay/starter.yaml"));
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${inst.riendaPath("replay/starter.yaml")}: replay script of provider "replay" does not exist; agent "starter" (replay/starter) uses it\n`,
    );
    expect(r.stdout).toContain('"rienda init" restores the starter script');
    // The fix works.
    await inst.run(["init"], { env: CLEAN_ENV });
    expect((await doctor()).code).toBe(0);
  });
});

describe("rienda doctor: agents", () => {
  beforeEach(() => {
    inst.config(GOOD_CONFIG);
  });

  test("a broken agent file: a problem per fault, naming the file; the good agents still count", async () => {
    agent("good", "model: local/llama");
    const file = inst.agent("broken", "---\ndescription: x\nmodel: gpt-4o\ntemperature: 1\n---\nhi\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: unknown key "temperature" in the frontmatter (known keys: description, model, tools, hooks, skills, agents, config, max_turns, max_cost, timeout, sandbox, permissions)\n  fix: remove "temperature" from the frontmatter`,
    );
    expect(r.stdout).toContain(`problem: ${file}: model: must have the form provider/alias (got "gpt-4o")\n`);
    expect(r.stdout).toContain("agents        good (and 1 that does not load)\n");
    expect(summary(r)).toBe("2 problems, 0 warnings");
  });

  test("an agent with an unknown model: the agent file, its model key, and the models that exist", async () => {
    const file = agent("coder", "model: local/llama3");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: model: unknown model "llama3" in provider "local" (models: llama)\n` +
        `  fix: change model: to one of local/llama, opencode-go/go-large, opencode-go/go-medium, opencode-go/go-small, zai-coding-plan/glm-4.5-air, zai-coding-plan/glm-4.6, or declare "llama3" under providers.local.models in ${inst.riendaPath("config.yaml")}\n`,
    );
  });

  test("an agent naming a tool and a hook that are not installed", async () => {
    inst.tool("hello", GOOD_TOOL);
    const file = agent("coder", "model: local/llama\ntools: [shell, ghost]\nhooks: [guard]");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: tools[1]: unknown tool "ghost" (available: hello, shell)\n  fix: install it as ${inst.riendaPath("tools/ghost/index.js")}, or remove "ghost" from tools:\n`,
    );
    expect(r.stdout).toContain(`problem: ${file}: hooks[0]: unknown hook "guard" (available: none installed)\n`);
    expect(summary(r)).toBe("2 problems, 0 warnings");
  });

  test("an agent naming a broken tool: a problem for the agent and one for the tool", async () => {
    const tool = inst.tool("half", 'module.exports = { description: "x", parameters: { type: "object" } };\n');
    const file = agent("coder", "model: local/llama\ntools: [half]");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: tools[0]: tool "half" does not load: missing "execute" (a function)\n  fix: fix ${tool} (see its own finding)`,
    );
    expect(r.stdout).toContain(
      `problem: ${tool}: tool "half": missing "execute" (a function)\n  fix: add execute to module.exports`,
    );
  });
});

describe("rienda doctor: tools and hooks", () => {
  beforeEach(() => {
    inst.config(GOOD_CONFIG);
  });

  test("a tool that does not load and one missing execute: problems with fixes, even when no agent uses them", async () => {
    const syntax = inst.tool("syntax", "module.exports = {\n");
    const half = inst.tool("half", 'module.exports = { description: "x", parameters: { type: "object" } };\n');
    inst.tool("ok", GOOD_TOOL);
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`problem: ${syntax}: tool "syntax": cannot load index.js: `);
    expect(r.stdout).toContain(
      `problem: ${half}: tool "half": missing "execute" (a function)\n  fix: add execute to module.exports: execute(ctx, args) { return "..."; }\n`,
    );
    expect(r.stdout).toContain("tools         ok, shell (and 2 that do not load)\n");
  });

  test("a hook with an unknown point and a hook that throws while loading", async () => {
    const typo = inst.hook("typo", "module.exports = { beforeTool(ctx, call) {} };\n");
    const boom = inst.hook("boom", 'throw new Error("kaput");\n');
    inst.hook("fine", "module.exports = { afterRun() {} };\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`problem: ${typo}: hook "typo": unknown point "beforeTool" (points: `);
    expect(r.stdout).toContain('  fix: rename "beforeTool" to one of beforeRun, ');
    expect(r.stdout).toContain(`problem: ${boom}: hook "boom": cannot load index.js: kaput\n`);
    expect(r.stdout).toContain("hooks         fine (and 2 that do not load)\n");
  });

  test("a user tool replacing the built-in shell is a warning, not a problem", async () => {
    const shell = inst.tool("shell", GOOD_TOOL);
    agent("coder", "model: local/llama\ntools: [shell]");
    const r = await doctor();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`warning: ${shell}: tool "shell" replaces a built-in tool\n`);
    expect(summary(r)).toBe("healthy (1 warning)");
  });

  test("loading a module never calls execute or a hook", async () => {
    const marker = join(inst.root, "called");
    const source = `const fs = require("fs");\nmodule.exports = { description: "x", parameters: { type: "object" }, execute() { fs.writeFileSync(${JSON.stringify(marker)}, "x"); return ""; } };\n`;
    inst.tool("marker", source);
    inst.hook(
      "marker",
      `module.exports = { beforeRun() { require("fs").writeFileSync(${JSON.stringify(marker)}, "x"); } };\n`,
    );
    const r = await doctor();
    expect(r.code).toBe(0);
    expect(() => statSync(marker)).toThrow();
  });
});

describe("rienda doctor: workspace and sessions", () => {
  beforeEach(() => {
    inst.config(GOOD_CONFIG);
  });

  test("an empty AGENTS.md is a warning; -C picks the workspace", async () => {
    const other = join(inst.root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "AGENTS.md"), "\n  \n");
    const here = await doctor();
    expect(here.stdout).toContain(`instructions  none in ${inst.workspace}\n`);
    expect(summary(here)).toBe("healthy");
    const r = await doctor(["-C", other]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`instructions  ${join(other, "AGENTS.md")}\n`);
    expect(r.stdout).toContain(
      `warning: ${join(other, "AGENTS.md")}: is empty, so agents get no project instructions from it\n`,
    );
    expect(summary(r)).toBe("healthy (1 warning)");
  });

  test("an empty AGENTS.md hiding a CLAUDE.md says so", async () => {
    inst.file("AGENTS.md", "");
    inst.file("CLAUDE.md", "Run the tests.\n");
    const r = await doctor();
    expect(r.stdout).toContain(`it also hides ${join(inst.workspace, "CLAUDE.md")}`);
    expect(r.stdout).toContain("or delete it so CLAUDE.md is used");
  });

  test("a sessions directory readable by others is a warning with a chmod fix", async () => {
    const sessions = inst.riendaPath("sessions");
    mkdirSync(join(sessions, "ws"), { recursive: true });
    writeFileSync(join(sessions, "ws", "a.jsonl"), "{}\n", { mode: 0o644 });
    chmodSync(join(sessions, "ws", "a.jsonl"), 0o644);
    chmodSync(join(sessions, "ws"), 0o700);
    chmodSync(sessions, 0o755);
    const r = await doctor();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`warning: ${sessions}: directory is open to other users (mode 0755, should be 0700)`);
    expect(r.stdout).toContain(`  fix: chmod -R go-rwx ${sessions}\n`);
    expect(r.stdout).toContain(
      `warning: ${join(sessions, "ws")}: a.jsonl is readable or writable by other users (mode 0644; sessions should be 0600)\n`,
    );
    expect(summary(r)).toBe("healthy (2 warnings)");
  });

  test("a missing -C directory fails like every command", async () => {
    const r = await doctor(["-C", "nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('rienda: workdir "nope" does not exist\n');
  });

  test("an unknown flag is refused", async () => {
    const r = await doctor(["--jsn"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rienda: doctor: unknown option --jsn");
  });
});

describe("rienda doctor: providers and keys", () => {
  test("each provider in the header with its key and models; a key stored by rienda auth counts for a config.yaml provider without api_key", async () => {
    inst.config(`${GOOD_CONFIG}  cloud:\n    preset: openai\n    models: { big: {}, small: {} }\n`);
    agent("coder", "model: cloud/big");
    const before = await doctor();
    expect(before.stdout).toStartWith(
      `config        ${inst.riendaPath("config.yaml")}\n` +
        "providers     local (config.yaml): no key (optional), 1 model\n" +
        "              cloud (config.yaml): no key (optional), 2 models\n" +
        `${BUILT_INS}agents        coder\n`,
    );
    expect((await inst.run(["auth", "set", "cloud"], { stdinPipe: "sk-cloud\n" })).code).toBe(0);
    const after = await doctor();
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("              cloud (config.yaml): key in credentials.json, 2 models\n");
    expect(after.stdout).not.toContain("sk-cloud");
  });

  test("a damaged credentials.json is a problem naming the file; the providers needing it show their key as unknown", async () => {
    inst.config(GOOD_CONFIG);
    agent("coder", "model: local/llama");
    const file = inst.write(inst.riendaPath("credentials.json"), '{"local": {"api_key": "k"},');
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("providers     local (config.yaml): key unknown (see the findings below)\n");
    expect(r.stdout).toMatch(
      new RegExp(
        `problem: ${file}: is not valid JSON \\(.*\\); it holds keys by provider: \\{"name": \\{"api_key": "..."\\}\\}\n  fix: repair it by hand`,
      ),
    );
    expect(summary(r)).toBe("1 problem, 0 warnings");
    const { report } = await doctorJson();
    expect(report.problems.map((p) => [p.check, p.file])).toEqual([["credentials", file]]);
  });

  test("a providers folder that is a file is a problem naming it", async () => {
    inst.config(GOOD_CONFIG);
    const file = inst.write(inst.riendaPath("providers"), "not a folder\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: is not a folder\n  fix: move it away: ${file} holds provider modules, one folder each (<name>/index.js)\n`,
    );
  });

  test("RIENDA_CREDENTIALS is the file checked", async () => {
    inst.config(GOOD_CONFIG);
    const file = inst.write(join(inst.root, "keys.json"), "[]");
    const r = await doctor([], { RIENDA_CREDENTIALS: file });
    expect(r.stdout).toContain(`problem: ${file}: must be a JSON object of providers`);
  });
});

describe("rienda doctor --json", () => {
  test("one JSON object: healthy, problems and warnings with file, key, line, name, message and fix, and what was checked", async () => {
    inst.config(`${GOOD_CONFIG}  cloud:\n    preset: openai\n    api_key: \${CLOUD_KEY}\n    models: { big: {} }\n`);
    const file = agent("coder", "model: local/llama\ntools: [ghost]");
    const { r, report } = await doctorJson();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(Object.keys(report)).toEqual(["healthy", "problems", "warnings", "checked"]);
    expect(report.healthy).toBe(false);
    expect(report.problems).toEqual([
      {
        severity: "problem",
        check: "agent",
        file,
        key: "tools[0]",
        line: null,
        name: "coder",
        message: 'unknown tool "ghost" (available: shell)',
        hint: `install it as ${inst.riendaPath("tools/ghost/index.js")}, or remove "ghost" from tools:`,
      },
    ]);
    expect(report.warnings.map((w) => [w.severity, w.check, w.key, w.name])).toEqual([
      ["warning", "config", "providers.cloud.api_key", "CLOUD_KEY"],
    ]);
    expect(report.checked).toEqual({
      config: inst.riendaPath("config.yaml"),
      configLoaded: true,
      configPresent: true,
      providers: [
        {
          name: "local",
          origin: "config",
          source: inst.riendaPath("config.yaml"),
          key: "not needed",
          ready: true,
          models: 1,
          problem: null,
        },
        {
          name: "cloud",
          origin: "config",
          source: inst.riendaPath("config.yaml"),
          key: "config",
          ready: false,
          models: 1,
          problem: "providers.cloud.api_key in config.yaml is empty: CLOUD_KEY is not set",
        },
        {
          name: "opencode-go",
          origin: "built-in",
          source: "built-in:opencode-go",
          key: "missing",
          ready: false,
          models: 3,
          problem: null,
        },
        {
          name: "zai-coding-plan",
          origin: "built-in",
          source: "built-in:zai-coding-plan",
          key: "missing",
          ready: false,
          models: 2,
          problem: null,
        },
      ],
      agents: ["coder"],
      tools: ["shell"],
      hooks: [],
      skills: [],
      workspace: inst.workspace,
      instructions: null,
      contextWindows: [],
    });
  });

  test("a config that does not load still gives the JSON object, with the config problem", async () => {
    const { r, report } = await doctorJson(["--config", "nowhere.yaml"]);
    expect(r.code).toBe(1);
    expect(report.checked.configLoaded).toBe(false);
    expect(report.checked.providers).toEqual([]);
    expect(report.problems.map((p) => [p.check, p.file, p.message])).toEqual([
      ["config", join(inst.workspace, "nowhere.yaml"), "no configuration file here"],
    ]);
  });
});

describe("docs/doctor.md", () => {
  /** The ```text blocks of the page, in order. */
  const blocks = [
    ...readFileSync(resolve(import.meta.dir, "../../docs/doctor.md"), "utf8").matchAll(/```text\n([\s\S]*?)```/g),
  ].map((m) => m[1]!);
  /** The report with this instance's paths written as the page writes them. */
  const asDocumented = (stdout: string) =>
    stdout.replaceAll(inst.workspace, "/home/ana/project").replaceAll(inst.home, "/home/ana");
  /** The page writes the built-ins' model counts as `...` (they are models.dev's). */
  const expectDocumented = (stdout: string, block: string) => {
    if (!matchesShown(asDocumented(stdout), block)) expect(asDocumented(stdout)).toBe(block);
  };

  test("the report after rienda init is the page's first example", async () => {
    await inst.run(["init"], { env: CLEAN_ENV });
    expectDocumented((await doctor()).stdout, blocks[0]!);
  });

  test("the report with problems is the page's second example", async () => {
    inst.config(`${GOOD_CONFIG}  cloud:\n    preset: openai\n    api_key: \${CLOUD_KEY}\n    models: { big: {} }\n`);
    cpSync(join(EXAMPLES, "tools/word-count"), inst.riendaPath("tools/word-count"), { recursive: true });
    inst.tool("half", 'module.exports = { description: "x", parameters: { type: "object" } };\n');
    agent("coder", "model: cloud/big\ntools: [shell, ghost]");
    inst.agent("writer", "---\ndescription: d\nmodel: local/llama\ntemperature: 1\n---\n");
    inst.file("AGENTS.md", "");
    const r = await doctor();
    expect(r.code).toBe(1);
    expectDocumented(r.stdout, blocks[1]!);
  });
});

describe("rienda doctor sends nothing and writes nothing", () => {
  test("no request reaches the provider of a full setup, and no file under HOME or the workspace changes", async () => {
    const s = await scenario({ agentFrontmatter: "tools: [hello, shell]\nhooks: [note]" });
    try {
      s.inst.tool("hello", GOOD_TOOL);
      s.inst.hook("note", 'module.exports = { beforeRun() {}, afterRun(ctx) { ctx.notify("bye"); } };\n');
      s.inst.file("AGENTS.md", "Be careful.\n");
      // What the built-in modules cache of models.dev (~/.rienda/cache) is theirs, as on a first run (docs/doctor.md).
      // Bun's own transpiler cache (~/.bun/install/cache/@t@) takes a copy of any module over about 3 KB it loads,
      // a built-in's too; it is the runtime's, not Rienda's (noted in docs/runtime.md). Creating it touches HOME's own time.
      const theirs = (lines: string[]) =>
        lines.filter(
          (line) => !/^home\/\.rienda(\/cache(\/\S*)?)? /.test(line) && !/^home(\/\.bun(\/\S*)?)? /.test(line),
        );
      const before = theirs(snapshot(s.inst.root));
      const r = await s.inst.run(["doctor"], { env: { ...CLEAN_ENV, ...MODELS_DEV() } });
      expect(r.code).toBe(0);
      expect(summary(r)).toBe("healthy");
      expect(r.stdout).toContain("hooks         note\n");
      expect(s.server.requests).toHaveLength(0);
      expect(theirs(snapshot(s.inst.root))).toEqual(before);
    } finally {
      await s.dispose();
    }
  });
});

/** Every path under `root` with its size, mode and modification time. */
function snapshot(root: string): string[] {
  return (readdirSync(root, { recursive: true, encoding: "utf8" }) as string[])
    .map((path) => {
      const stat = statSync(join(root, path));
      return `${relative(root, join(root, path))} ${stat.size} ${stat.mode.toString(8)} ${stat.mtimeMs}`;
    })
    .sort();
}

describe("rienda doctor: settings that are not sent", () => {
  test("temperature with Anthropic thinking is a warning with its key, and the setup stays healthy", async () => {
    inst.config(
      "providers:\n  claude:\n    preset: anthropic\n    api_key: k\n    models:\n      sonnet:\n        thinking_max_tokens: 2048\n        temperature: 0.5\n",
    );
    const { r, report } = await doctorJson();
    expect(r.code).toBe(0);
    const warning = report.warnings.find((w) => w.key === "providers.claude.models.sonnet.temperature");
    expect(warning).toMatchObject({
      severity: "warning",
      check: "config",
      file: inst.riendaPath("config.yaml"),
      line: 8,
    });
    expect(warning?.message).toContain("is not sent: Anthropic refuses temperature when thinking is enabled");
  });
});
