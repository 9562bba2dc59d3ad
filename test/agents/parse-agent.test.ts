import { describe, expect, test } from "bun:test";
import { parseAgent, splitFrontmatter } from "../../src/agents/index.ts";
import { RiendaError } from "../../src/errors.ts";

const FILE = "/home/u/.rienda/agents/coder.md";

function lines(text: string): string[] {
  try {
    parseAgent("coder", text, FILE);
  } catch (error) {
    if (error instanceof RiendaError) {
      expect(error.code).toBe("agent");
      return error.message.split("\n");
    }
    throw error;
  }
  throw new Error("expected the agent to be refused");
}

const GOOD = `---
description: Writes and fixes code.
model: openai/gpt-4o
tools:
  - shell
  - word-count
hooks: [guard, date-injection]
config:
  word-count: { min_length: 3 }
---

You are a careful coding agent.

Answer briefly.
`;

describe("parseAgent", () => {
  test("reads every frontmatter key and the trimmed body", () => {
    expect(parseAgent("coder", GOOD, FILE)).toEqual({
      id: "coder",
      file: FILE,
      description: "Writes and fixes code.",
      model: "openai/gpt-4o",
      tools: ["shell", "word-count"],
      hooks: ["guard", "date-injection"],
      skills: [],
      agents: [],
      config: { "word-count": { min_length: 3 } },
      limits: {},
      sandbox: {},
      permissions: [],
      systemPrompt: "You are a careful coding agent.\n\nAnswer briefly.",
    });
  });

  test("tools, hooks and config are optional", () => {
    const agent = parseAgent("a", "---\ndescription: d\nmodel: p/m\n---\nbody\n", FILE);
    expect([agent.tools, agent.hooks, agent.config, agent.systemPrompt]).toEqual([[], [], {}, "body"]);
  });

  test("keys with no value count as absent", () => {
    const agent = parseAgent("a", "---\ndescription: d\nmodel: p/m\ntools:\nhooks:\nconfig:\n---\n", FILE);
    expect([agent.tools, agent.hooks, agent.config]).toEqual([[], [], {}]);
  });

  test("config settings written as yaml.v3 read numbers (1_000_000, 0b101) are numbers; quoted, text; text keys keep their text", () => {
    const agent = parseAgent(
      "a",
      "---\ndescription: 1_000\nmodel: p/m\nconfig:\n  word-count: { max_bytes: 1_000_000, flags: 0b101, label: '1_0' }\n---\n",
      FILE,
    );
    expect(agent.description).toBe("1_000");
    expect(agent.config).toEqual({ "word-count": { max_bytes: 1000000, flags: 5, label: "1_0" } });
  });

  test("an extension named in config with no value has no settings, as in the Go original", () => {
    const agent = parseAgent(
      "a",
      "---\ndescription: d\nmodel: p/m\nconfig:\n  word-count:\n  guard: { strict: true }\n---\n",
      FILE,
    );
    expect(agent.config).toEqual({ "word-count": {}, guard: { strict: true } });
  });

  test("an empty body is an empty system prompt", () => {
    expect(parseAgent("a", "---\ndescription: d\nmodel: p/m\n---", FILE).systemPrompt).toBe("");
  });

  test("tolerates a byte order mark and CRLF line ends", () => {
    const agent = parseAgent("coder", `\uFEFF${GOOD.replace(/\n/g, "\r\n")}`, FILE);
    expect(agent.description).toBe("Writes and fixes code.");
    expect(agent.systemPrompt).toBe("You are a careful coding agent.\n\nAnswer briefly.");
  });

  test("the delimiter lines may carry trailing spaces", () => {
    expect(parseAgent("a", "---  \ndescription: d\nmodel: p/m\n--- \nhi", FILE).systemPrompt).toBe("hi");
  });

  test("a --- later in the body is part of the body", () => {
    expect(parseAgent("a", "---\ndescription: d\nmodel: p/m\n---\none\n\n---\n\ntwo\n", FILE).systemPrompt).toBe(
      "one\n\n---\n\ntwo",
    );
  });

  test("the model alias may contain slashes", () => {
    expect(parseAgent("a", "---\ndescription: d\nmodel: openrouter/moonshotai/kimi-k2\n---\n", FILE).model).toBe(
      "openrouter/moonshotai/kimi-k2",
    );
  });

  test("a description written as a number keeps its text", () => {
    expect(parseAgent("a", "---\ndescription: 1.10\nmodel: p/m\n---\n", FILE).description).toBe("1.10");
  });
});

describe("parseAgent errors name the file and the problem", () => {
  test("a file without frontmatter", () => {
    expect(lines("You are helpful.\n")).toEqual([
      `${FILE}: must start with a "---" line, then the YAML frontmatter (description, model), a closing "---" line and the system prompt`,
    ]);
  });

  test("an unclosed frontmatter", () => {
    expect(lines("---\ndescription: d\nmodel: p/m\n")).toEqual([
      `${FILE}: the frontmatter opened on line 1 is never closed (add a "---" line after it)`,
    ]);
  });

  test("an empty frontmatter", () => {
    expect(lines("---\n---\nbody")).toEqual([
      `${FILE}: the frontmatter is empty; "description" and "model" are required`,
    ]);
    expect(lines("---\n# just a comment\n---\nbody")).toEqual([
      `${FILE}: the frontmatter is empty; "description" and "model" are required`,
    ]);
  });

  test("a YAML syntax error gives the file's line number", () => {
    const [line] = lines("---\ndescription: d\nmodel: [p/m\n---\n");
    expect(line).toStartWith(`${FILE}: line 3, column 12: invalid frontmatter: `);
  });

  test("a duplicate key is a syntax error", () => {
    expect(lines("---\ndescription: d\ndescription: e\nmodel: p/m\n---\n")[0]).toEqual(
      `${FILE}: line 3, column 1: invalid frontmatter: duplicate key "description"`,
    );
  });

  test("a frontmatter that is not a mapping", () => {
    expect(lines("---\n- description\n---\n")).toEqual([
      `${FILE}: the frontmatter must be a mapping of keys (description, model, ...), not a list`,
    ]);
  });

  test("unknown keys, listing the known ones", () => {
    expect(lines("---\ndescription: d\nmodel: p/m\ntemperature: 1\n---\n")).toEqual([
      `${FILE}: unknown key "temperature" in the frontmatter (known keys: description, model, tools, hooks, skills, agents, config, max_turns, max_cost, timeout, sandbox, permissions)`,
    ]);
  });

  test("a missing or empty description", () => {
    expect(lines("---\nmodel: p/m\n---\n")).toEqual([
      `${FILE}: missing "description" (a non-empty text saying what the agent does)`,
    ]);
    expect(lines('---\ndescription: "  "\nmodel: p/m\n---\n')).toEqual([`${FILE}: description: must not be empty`]);
    expect(lines("---\ndescription: [a]\nmodel: p/m\n---\n")).toEqual([
      `${FILE}: description: must be a string, not a list`,
    ]);
  });

  test("a malformed model (none at all is allowed: the session picks it, go-current.md)", () => {
    expect(parseAgent("a", "---\ndescription: d\n---\n", FILE).model).toBeUndefined();
    expect(lines("---\ndescription: d\nmodel: gpt-4o\n---\n")).toEqual([
      `${FILE}: model: must have the form provider/alias (got "gpt-4o")`,
    ]);
    expect(lines("---\ndescription: d\nmodel: openai/\n---\n")).toEqual([
      `${FILE}: model: must have the form provider/alias (got "openai/")`,
    ]);
    expect(lines("---\ndescription: d\nmodel: { p: m }\n---\n")).toEqual([
      `${FILE}: model: must be a string, not a mapping`,
    ]);
  });

  test("tools and hooks must be lists of valid, distinct names", () => {
    expect(lines("---\ndescription: d\nmodel: p/m\ntools: shell\n---\n")).toEqual([
      `${FILE}: tools: must be a list of tool names, not a string ("shell")`,
    ]);
    expect(lines("---\ndescription: d\nmodel: p/m\ntools: [shell, { a: 1 }]\n---\n")).toEqual([
      `${FILE}: tools[1]: must be a tool name, not a mapping`,
    ]);
    expect(lines("---\ndescription: d\nmodel: p/m\ntools: [shell, my tool]\n---\n")).toEqual([
      `${FILE}: tools[1]: "my tool" is not a valid tool name (1 to 64 letters, digits, "_" or "-")`,
    ]);
    expect(lines("---\ndescription: d\nmodel: p/m\nhooks: [guard, guard]\n---\n")).toEqual([
      `${FILE}: hooks[1]: "guard" is listed twice`,
    ]);
    expect(lines(`---\ndescription: d\nmodel: p/m\nhooks: [${"h".repeat(65)}]\n---\n`)[0]).toContain(
      "is not a valid hook name",
    );
  });

  test("an agent with skills cannot also list a tool named skill, which its skills bring", () => {
    expect(lines("---\ndescription: d\nmodel: p/m\ntools: [shell, skill]\nskills: [notes]\n---\n")).toEqual([
      `${FILE}: tools: "skill" is the built-in tool of skills, given to every agent that declares skills; remove it from tools:`,
    ]);
    expect(parseAgent("coder", "---\ndescription: d\nmodel: p/m\ntools: [skill]\n---\n", FILE).tools).toEqual([
      "skill",
    ]);
  });

  test("config must be a mapping of mappings", () => {
    expect(lines("---\ndescription: d\nmodel: p/m\nconfig: [a]\n---\n")).toEqual([
      `${FILE}: config: must be a mapping of extension name to settings, not a list`,
    ]);
    expect(lines("---\ndescription: d\nmodel: p/m\nconfig: { word-count: 3 }\n---\n")).toEqual([
      `${FILE}: config.word-count: must be a mapping of settings for the extension "word-count" (write {} for none), not a number (3)`,
    ]);
  });

  test("every problem is reported, one line each", () => {
    expect(lines("---\nmodel: gpt\ntool: [x]\n---\n")).toEqual([
      `${FILE}: unknown key "tool" in the frontmatter (known keys: description, model, tools, hooks, skills, agents, config, max_turns, max_cost, timeout, sandbox, permissions)`,
      `${FILE}: missing "description" (a non-empty text saying what the agent does)`,
      `${FILE}: model: must have the form provider/alias (got "gpt")`,
    ]);
  });
});

describe("splitFrontmatter", () => {
  test("returns the frontmatter text and the body", () => {
    expect(splitFrontmatter("---\na: 1\n---\nbody\n")).toEqual({ ok: true, frontmatter: "a: 1", body: "body\n" });
  });

  test("edge layouts: BOM and CRLF, trailing spaces, an empty frontmatter, a closing line at the end, a later --- in the body", () => {
    expect(splitFrontmatter("\uFEFF---  \r\na: 1\r\nb: 2\r\n--- \r\nbody\r\n---\r\nmore")).toEqual({
      ok: true,
      frontmatter: "a: 1\nb: 2",
      body: "body\n---\nmore",
    });
    expect(splitFrontmatter("---\n---\n")).toEqual({ ok: true, frontmatter: "", body: "" });
    expect(splitFrontmatter("---\na: 1\n---")).toEqual({ ok: true, frontmatter: "a: 1", body: "" });
    expect(splitFrontmatter("---\na: 1\n").ok).toBe(false);
    expect(splitFrontmatter("---").ok).toBe(false);
    expect(splitFrontmatter("").ok).toBe(false);
  });
});

describe("parseAgent: unusual frontmatter", () => {
  test("a second YAML document inside the frontmatter is refused", () => {
    expect(lines("---\ndescription: d\n...\nmodel: p/m\n---\n")).toEqual([
      `${FILE}: line 4: the frontmatter must hold a single YAML document`,
    ]);
  });

  test("an alias bomb is refused", () => {
    const rows = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      rows.push(`${next}: &${next} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`);
    }
    expect(lines(`---\n${rows.join("\n")}\n---\n`)[0]).toStartWith(
      `${FILE}: invalid frontmatter: Excessive alias count`,
    );
  });
});
