import { describe, expect, test } from "bun:test";
import { parseAgent, type Agent, type AgentProblem } from "../../../src/agents/index.ts";
import {
  checkAgentExtensions,
  checkAgentFiles,
  checkAgentModels,
  type ExtensionInventory,
} from "../../../src/cli/doctor/index.ts";
import { parseConfig } from "../../../src/config/index.ts";

const DIR = "/home/ana/.rienda";
const CONFIG = `${DIR}/config.yaml`;

function agent(id: string, frontmatter: string): Agent {
  return parseAgent(id, `---\ndescription: d\n${frontmatter}\n---\nbody\n`, `${DIR}/agents/${id}.md`);
}

function brokenAgent(id: string, text: string): AgentProblem {
  const file = `${DIR}/agents/${id}.md`;
  try {
    parseAgent(id, text, file);
  } catch (error) {
    return { id, file, message: (error as Error).message };
  }
  throw new Error("the agent parsed");
}

describe("checkAgentFiles", () => {
  test("one problem per line of a broken agent, without the repeated file name, with its key", () => {
    const problem = brokenAgent("coder", "---\ndescription: d\nmodel: gpt-4o\ntemperature: 1\n---\n");
    const findings = checkAgentFiles([problem]);
    expect(findings.map((f) => [f.severity, f.check, f.file, f.name, f.key])).toEqual([
      ["problem", "agent", problem.file, "coder", undefined],
      ["problem", "agent", problem.file, "coder", "model"],
    ]);
    expect(findings[0]!.message).toStartWith('unknown key "temperature" in the frontmatter');
    expect(findings[0]!.hint).toStartWith('remove "temperature" from the frontmatter');
    expect(findings[1]!.message).toBe('model: must have the form provider/alias (got "gpt-4o")');
    expect(findings[1]!.hint).toContain("provider/alias");
  });

  test("a file without frontmatter says how an agent file starts", () => {
    const [finding] = checkAgentFiles([brokenAgent("plain", "just a prompt\n")]);
    expect(finding!.hint).toContain('start the file with a "---" line');
  });

  test("a YAML error keeps its line", () => {
    const [finding] = checkAgentFiles([brokenAgent("bad", "---\ndescription: d\nmodel: [\n---\n")]);
    expect(finding!.line).toBeNumber();
  });
});

describe("checkAgentModels", () => {
  const config = parseConfig("providers:\n  openai:\n    preset: openai\n    models: { gpt-4o: {} }\n", {
    path: CONFIG,
    env: {},
    home: "/home/ana",
  });

  test("a model that resolves gives no finding", () => {
    expect(checkAgentModels([agent("a", "model: openai/gpt-4o")], config)).toEqual([]);
  });

  test("an unknown alias is a problem listing the models", () => {
    const [finding] = checkAgentModels([agent("a", "model: openai/gpt-5")], config);
    expect(finding).toMatchObject({
      severity: "problem",
      check: "agent",
      file: `${DIR}/agents/a.md`,
      key: "model",
      name: "a",
    });
    expect(finding!.message).toBe('unknown model "gpt-5" in provider "openai" (models: gpt-4o)');
    expect(finding!.hint).toBe(
      `change model: to one of openai/gpt-4o, or declare "gpt-5" under providers.openai.models in ${CONFIG}`,
    );
  });

  test("an unknown provider names the file and its providers", () => {
    const [finding] = checkAgentModels([agent("a", "model: anthropic/sonnet")], config);
    expect(finding!.message).toBe(`unknown provider "anthropic" (providers in ${CONFIG}: openai)`);
    expect(finding!.hint).toContain('add a provider "anthropic" with a model "sonnet"');
  });
});

describe("checkAgentExtensions", () => {
  const tools: ExtensionInventory = {
    loaded: ["shell", "word-count"],
    available: ["broken", "shell", "word-count"],
    diagnostics: [
      {
        kind: "tool",
        name: "broken",
        file: `${DIR}/tools/broken/index.js`,
        problem: 'missing "execute" (a function)',
        message: "",
      },
    ],
  };
  const hooks: ExtensionInventory = { loaded: ["guard"], available: ["guard"], diagnostics: [] };

  test("tools and hooks that load give no finding", () => {
    expect(
      checkAgentExtensions([agent("a", "model: p/m\ntools: [shell, word-count]\nhooks: [guard]")], DIR, {
        tool: tools,
        hook: hooks,
      }),
    ).toEqual([]);
  });

  test("a missing tool lists what is available; a missing hook says where to install it", () => {
    const findings = checkAgentExtensions([agent("a", "model: p/m\ntools: [shell, ghost]\nhooks: [date]")], DIR, {
      tool: tools,
      hook: hooks,
    });
    expect(findings.map((f) => [f.key, f.message])).toEqual([
      ["tools[1]", 'unknown tool "ghost" (available: shell, word-count); not loading: broken'],
      ["hooks[0]", 'unknown hook "date" (available: guard)'],
    ]);
    expect(findings[1]!.hint).toBe(`install it as ${DIR}/hooks/date/index.js, or remove "date" from hooks:`);
  });

  test("a named tool that does not load says why and points at its file", () => {
    const [finding] = checkAgentExtensions([agent("a", "model: p/m\ntools: [broken]")], DIR, {
      tool: tools,
      hook: hooks,
    });
    expect(finding!.message).toBe('tool "broken" does not load: missing "execute" (a function)');
    expect(finding!.hint).toStartWith(`fix ${DIR}/tools/broken/index.js`);
  });

  test("with nothing installed the list says so", () => {
    const [finding] = checkAgentExtensions([agent("a", "model: p/m\nhooks: [x]")], DIR, {
      tool: tools,
      hook: { loaded: [], available: [], diagnostics: [] },
    });
    expect(finding!.message).toBe('unknown hook "x" (available: none installed)');
  });
});
