/**
 * The examples of tools.md and hooks.md, read as an acceptance-test author and
 * as an attacker. The section-by-section checks (tools-spec, hooks-spec)
 * read the pages sentence by sentence; this file takes the page's examples
 * verbatim and checks that each keeps its promise on every way a tool is
 * reached (`rienda run` on each protocol, `rienda tool run`, `rienda mcp
 * serve`), checks the limits one past the boundary, and tries to slip a
 * dangerous call past the page's guard hook: several calls in one answer, a
 * call that comes after a provider retry, arguments smuggled under
 * `__proto__`, arguments that are not JSON or are JSON encoded twice, and a
 * subagent that runs the same guard. Black box only.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  jsonEvents,
  PROTOCOLS,
  scenario,
  toolNamesOf,
  toolResultsOf,
  type JsonEvent,
  type Scenario,
} from "../support/scenario.ts";
import { WORD_COUNT, JSON_FIELD, GUARD } from "../support/spec-examples.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** hooks.md's frontmatter names a second hook, `audit`, that the page does not show: one that records every tool call it sees. */
const AUDIT = `module.exports = {
  afterToolExecute(ctx, call, result) {
    ctx.file.write("audit.log", JSON.stringify({ name: call.name, arguments: call.arguments, text: result.text, isError: result.isError }) + "\\n", { append: true });
  },
};
`;

/** The page's "anything else is an error" text for a value that is not a string or { text }. */
const NOT_A_RESULT = (what: string) =>
  `execute returned ${what}; it must return a string or { text: string, isError?: boolean }`;

function events(stdout: string, type: string): JsonEvent[] {
  return jsonEvents(stdout).filter((e) => e.type === type);
}

/** Lines of JSON-RPC sent to `rienda mcp serve` on stdin: initialize, then one tools/call per entry. */
function mcpCalls(calls: { name: string; arguments: unknown }[]): string {
  const lines: unknown[] = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "me", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...calls.map((c, i) => ({ jsonrpc: "2.0", id: i + 2, method: "tools/call", params: c })),
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** The tool results (text, isError) of `rienda mcp serve`'s answers to mcpCalls, in call order. */
function mcpResults(stdout: string): [string, boolean][] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id?: number; result?: { content?: { text: string }[]; isError?: boolean } })
    .filter((m) => typeof m.id === "number" && m.id >= 2)
    .sort((a, b) => a.id! - b.id!)
    .map((m) => [m.result!.content![0]!.text, m.result!.isError === true]);
}

describe("tools.md's examples keep their promise on every way a tool is reached", () => {
  for (const protocol of PROTOCOLS) {
    test(`word-count, verbatim, in a run on ${protocol}: the model is offered it as the page wrote it and reads the count`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools:\n  - word-count" });
      s.inst.tool("word-count", WORD_COUNT);
      s.inst.file("notes.txt", "one two  three\nfour\tfive six\n");
      s.server.script(
        { toolCalls: [{ id: "c1", name: "word-count", arguments: { path: "notes.txt" } }] },
        { text: "six words" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "count notes.txt"]);
      expect(r.stderr).not.toContain("rienda:");
      expect(r.code).toBe(0);
      expect(toolNamesOf(s.server.requests[0]!)).toEqual(["word-count"]);
      // The schema reaches the provider verbatim, the property's description included.
      expect(JSON.stringify(s.server.requests[0]!.body)).toContain(
        '"path":{"type":"string","description":"Path relative to the workspace."}',
      );
      expect(JSON.stringify(s.server.requests[0]!.body)).toContain("Counts the words of a file in the workspace.");
      expect(toolResultsOf(s.server.requests[1]!)).toEqual(["6"]);
      expect(r.stdout).toBe("six words\n");
    });
  }

  test("word-count and json-field, verbatim, give the same results through rienda tool run and rienda mcp serve", async () => {
    s = await scenario();
    s.inst.tool("word-count", WORD_COUNT);
    s.inst.tool("json-field", JSON_FIELD);
    s.inst.file("notes.txt", "alpha beta gamma\n");
    s.inst.file("package.json", JSON.stringify({ version: "1.2.3", scripts: { test: "bun test" } }));

    const direct = await s.inst.run(["tool", "run", "word-count", "--args", '{"path":"notes.txt"}']);
    expect([direct.code, direct.stdout]).toEqual([0, "3\n"]);
    const field = await s.inst.run([
      "tool",
      "run",
      "json-field",
      "--args",
      '{"path":"package.json","field":"scripts"}',
    ]);
    expect([field.code, field.stdout]).toEqual([0, '{"test":"bun test"}\n']);

    const served = await s.inst.run(["mcp", "serve", "--tools", "word-count,json-field"], {
      stdin: mcpCalls([
        { name: "word-count", arguments: { path: "notes.txt" } },
        { name: "json-field", arguments: { path: "package.json", field: "version" } },
      ]),
    });
    expect(served.code).toBe(0);
    expect(mcpResults(served.stdout)).toEqual([
      ["3", false],
      ['"1.2.3"', false],
    ]);
  });

  test("json-field, verbatim, asked for a field the file lacks: JSON.stringify gives undefined, which is not a result, so the model reads an error and the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [json-field]" });
    s.inst.tool("json-field", JSON_FIELD);
    s.inst.file("package.json", JSON.stringify({ version: "1.2.3" }));
    s.inst.file("broken.json", "{ not json");
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "json-field", arguments: { path: "package.json", field: "license" } },
          { id: "c2", name: "json-field", arguments: { path: "broken.json", field: "version" } },
          { id: "c3", name: "json-field", arguments: { path: "package.json", field: "version" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "read", "--json"]);
    expect(r.code).toBe(0);
    const results = events(r.stdout, "tool_result").map((e) => [e.text, e.isError]);
    expect(results[0]).toEqual([NOT_A_RESULT("undefined"), true]);
    // A throw (JSON.parse of a broken file) fails that invocation only: its error text, then the next call runs.
    expect(results[1]![1]).toBe(true);
    expect(results[1]![0] as string).toContain("JSON");
    expect(results[2]).toEqual(['"1.2.3"', false]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(results.map((x) => x[0] as string));
    expect(r.stdout).toContain('"text":"done"');

    // The same values, reached without a model, are the same errors.
    const direct = await s.inst.run([
      "tool",
      "run",
      "json-field",
      "--args",
      '{"path":"package.json","field":"license"}',
    ]);
    expect([direct.code, direct.stdout]).toEqual([1, `${NOT_A_RESULT("undefined")}\n`]);
    const served = await s.inst.run(["mcp", "serve", "--tools", "json-field"], {
      stdin: mcpCalls([{ name: "json-field", arguments: { path: "package.json", field: "license" } }]),
    });
    expect(mcpResults(served.stdout)).toEqual([[NOT_A_RESULT("undefined"), true]]);
  });
});

describe("tools.md's output cap, one past the boundary", () => {
  test("256 KiB + 1 byte is cut to at most 256 KiB, ending with the [output truncated] line; 256 KiB exactly is not cut", async () => {
    s = await scenario({ agentFrontmatter: "tools: [big]" });
    s.inst.tool(
      "big",
      `module.exports = { description: "d", parameters: { type: "object" }, execute: function(ctx, args) { return "a".repeat(args.n); } };\n`,
    );
    const cap = 256 * 1024;
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "big", arguments: { n: cap } },
          { id: "c2", name: "big", arguments: { n: cap + 1 } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const [atLimit, onePast] = toolResultsOf(s.server.requests[1]!);
    expect(atLimit).toBe("a".repeat(cap));
    expect(Buffer.byteLength(onePast!)).toBe(cap);
    expect(onePast).toBe("a".repeat(cap - "\n[output truncated]".length) + "\n[output truncated]");
  });
});

describe("hooks.md's guard, verbatim, under the page's frontmatter (tools: [shell], hooks: [guard, audit]): attempts to get past it", () => {
  async function guarded(): Promise<Scenario> {
    const sc = await scenario();
    sc.inst.agent(
      "careful",
      "---\ndescription: A careful agent.\nmodel: p/m\ntools: [shell]\nhooks: [guard, audit]\n---\nYou are careful.\n",
    );
    sc.inst.hook("guard", GUARD);
    sc.inst.hook("audit", AUDIT);
    sc.inst.file("victim/file.txt", "keep me");
    return sc;
  }
  const victim = () => join(s!.inst.workspace, "victim/file.txt");

  test("several rm -rf in one answer, between harmless calls: each is refused on its own, the harmless ones run, audit sees only what ran", async () => {
    s = await guarded();
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "echo first" } },
          { id: "c2", name: "shell", arguments: { command: "rm -rf victim" } },
          { id: "c3", name: "shell", arguments: { command: "echo third" } },
          { id: "c4", name: "shell", arguments: { command: "cd . && rm  -rf victim" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "careful", "-p", "clean", "--json"]);
    expect(r.code).toBe(0);
    expect(existsSync(victim())).toBe(true);
    expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([
      ["first", false],
      ["refused by the user", true],
      ["third", false],
      ["refused by the user", true],
    ]);
    // A refusal is final: the later hook (audit) is not consulted for the refused calls.
    const audit = readFileSync(join(s.inst.workspace, "audit.log"), "utf8");
    expect(
      audit
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { arguments: { command: string } }).arguments.command),
    ).toEqual(["echo first", "echo third"]);
    expect(events(r.stdout, "notice")).toContainEqual(
      expect.objectContaining({ title: "rienda", body: "run finished: end_turn" }),
    );
  });

  test("a dangerous call that comes after the provider failed and was retried is refused like any other", async () => {
    s = await guarded();
    s.server.script(
      { error: { status: 500, type: "server_error", message: "try again" } },
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf victim" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "careful", "-p", "clean"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("retrying");
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["refused by the user"]);
    expect(existsSync(victim())).toBe(true);
  });

  test("arguments the guard cannot read do not reach the shell either: smuggled under __proto__, not JSON, or JSON encoded twice", async () => {
    s = await guarded();
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", rawArguments: '{"__proto__":{"command":"rm -rf victim"}}' },
          { id: "c2", name: "shell", rawArguments: "rm -rf victim" },
          { id: "c3", name: "shell", rawArguments: JSON.stringify(JSON.stringify({ command: "rm -rf victim" })) },
          { id: "c4", name: "shell", rawArguments: '{"command":"echo harmless","command":"rm -rf victim"}' },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "careful", "-p", "clean", "--json"]);
    expect(r.code).toBe(0);
    expect(existsSync(victim())).toBe(true);
    const results = events(r.stdout, "tool_result");
    expect(results.map((e) => e.isError)).toEqual([true, true, true, true]);
    // A repeated key counts once, as its last value: the guard saw the rm -rf the shell would have run.
    expect(results[3]!.text).toBe("refused by the user");
  });

  test("a subagent whose agent lists the guard is guarded in its own session; the parent's guard sees the delegation", async () => {
    s = await scenario();
    s.inst.agent("lead", "---\ndescription: Leads.\nmodel: p/m\nagents: [cleaner]\nhooks: [guard]\n---\nYou lead.\n");
    s.inst.agent(
      "cleaner",
      "---\ndescription: Cleans up.\nmodel: p/m\ntools: [shell]\nhooks: [guard]\n---\nYou clean.\n",
    );
    s.inst.hook("guard", GUARD);
    s.inst.file("victim/file.txt", "keep me");
    s.server.script(
      { toolCalls: [{ id: "p1", name: "agent__cleaner", arguments: { prompt: "remove victim" } }] },
      { toolCalls: [{ id: "k1", name: "shell", arguments: { command: "rm -rf victim" } }] },
      { text: "could not: refused" },
      { text: "the cleaner was refused" },
    );
    const r = await s.inst.run(["run", "-a", "lead", "-p", "clean", "--json"]);
    expect(r.code).toBe(0);
    expect(existsSync(victim())).toBe(true);
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["refused by the user"]);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["could not: refused"]);
    // Each run's afterRun notifies: the child's and the parent's.
    expect(events(r.stdout, "notice").filter((e) => e.body === "run finished: end_turn").length).toBe(2);
  });
});

describe("paths that reach a tool with no agent run no hook (hooks.md: an agent lists the hooks it runs)", () => {
  test("rienda tool run and rienda mcp serve call the tool as it is, even while an installed agent lists a hook that refuses everything", async () => {
    s = await scenario({ agentFrontmatter: "tools: [word-count]\nhooks: [deny]" });
    s.inst.tool("word-count", WORD_COUNT);
    s.inst.hook(
      "deny",
      `module.exports = { beforeToolExecute() { return { allow: false, reason: "denied by deny" }; } };\n`,
    );
    s.inst.file("notes.txt", "one two\n");
    // The agent's own run is refused: the hook is installed and works.
    s.server.script(
      { toolCalls: [{ id: "c1", name: "word-count", arguments: { path: "notes.txt" } }] },
      { text: "ok" },
    );
    const run = await s.inst.run(["run", "-a", "coder", "-p", "count"]);
    expect(run.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["denied by deny"]);

    const direct = await s.inst.run(["tool", "run", "word-count", "--args", '{"path":"notes.txt"}']);
    expect([direct.code, direct.stdout]).toEqual([0, "2\n"]);
    const served = await s.inst.run(["mcp", "serve", "--tools", "word-count"], {
      stdin: mcpCalls([{ name: "word-count", arguments: { path: "notes.txt" } }]),
    });
    expect(mcpResults(served.stdout)).toEqual([["2", false]]);
  });
});

describe("a tool or hook fails its call, never the run (tools.md: a throw fails the invocation, never the run; hooks.md: a hook never crashes or fails a run)", () => {
  test("process.abort() in a hook and in a tool fails that call only: the hook is reported and ignored, the tool's call is an error result, the run ends normally", async () => {
    const refused = "process.abort() would end Rienda itself, not only this call; throw an Error to fail the call";
    s = await scenario({ agentFrontmatter: "tools: [t]\nhooks: [h]" });
    s.inst.tool(
      "t",
      `module.exports = { description: "d", parameters: { type: "object" }, execute: function(ctx, args) { if (args.abort) process.abort(); return "tool ran"; } };\n`,
    );
    s.inst.hook(
      "h",
      `module.exports = { beforeToolExecute(ctx, call) { if (call.arguments.hookAbort) require("node:process").abort(); }, afterRun(ctx, end) { ctx.file.write("after-run", end.reason); } };\n`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "t", arguments: { hookAbort: true } },
          { id: "c2", name: "t", arguments: { abort: true } },
        ],
      },
      { text: "still answering" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(events(r.stdout, "hook")).toContainEqual(
      expect.objectContaining({
        name: "h",
        point: "beforeToolExecute",
        outcome: "error",
        message: expect.stringContaining(refused),
      }),
    );
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["tool ran", refused]);
    expect(events(r.stdout, "tool_result").map((e) => e.isError)).toEqual([false, true]);
    expect(r.stdout).toContain('"text":"still answering"');
    expect(readFileSync(join(s.inst.workspace, "after-run"), "utf8")).toBe("end_turn");
  });
});

describe("fresh state (tools.md, hooks.md: every invocation runs in a fresh runtime)", () => {
  test("a process.umask() in a tool or a hook lasts for its own call: the next call, and the commands it runs, get the mask Rienda started with", async () => {
    s = await scenario({ agentFrontmatter: "tools: [mask]\nhooks: [loosen]" });
    s.inst.tool(
      "mask",
      `module.exports = { description: "d", parameters: { type: "object" }, execute: function(ctx, args) { const seen = process.umask().toString(8) + " " + ctx.system.exec("umask").stdout.trim(); if (args.loosen) process.umask(0); return seen; } };\n`,
    );
    s.inst.hook("loosen", `module.exports = { beforeToolExecute(ctx, call) { process.umask(0); } };\n`);
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "mask", arguments: { loosen: true } },
          { id: "c2", name: "mask", arguments: {} },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    // Rienda inherits this test's mask; the shell prints it with four digits.
    const mask = process.umask().toString(8);
    expect(mask).not.toBe("0");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      `${mask} ${mask.padStart(4, "0")}`,
      `${mask} ${mask.padStart(4, "0")}`,
    ]);
  });
});
