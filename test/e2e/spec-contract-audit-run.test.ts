/**
 * Contract §4-§6 (command line, output, run loop, sessions) checked word for
 * word against the binary where no other e2e test states them literally:
 * the plain output's lines, the tool-call rules of the loop, the built-in
 * shell's parameters and result text, the session file's shape and the
 * entries a continued session honours.
 * Written from the contract alone by the spec audit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, scenario, toolNamesOf, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** §6: `<slug>-<hash8>` of an absolute workspace path (ASCII paths: the slug is under 100 bytes here). */
function workspaceDirName(path: string): string {
  return `${path.replace(/[^A-Za-z0-9_]+/g, "-")}-${createHash("sha256").update(path).digest("hex").slice(0, 8)}`;
}

/** A tool that leaves a mark in the workspace when it runs, so a test can tell whether it did. */
const MARKING_TOOL = `module.exports = { description: "d", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  execute(ctx, args) { ctx.file.write("ran-" + args.n, "x"); return "ran " + args.n; } };`;

describe("plain output of run (contract §4)", () => {
  test("stderr: session line first, tool: <name> <argsJSON>, tool failed: <text>; stdout: each message's text whole and newline-terminated, thinking never", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { thinking: "SECRET THOUGHTS", text: "Looking.", toolCalls: [{ name: "shell", arguments: { command: "echo out; exit 4", workdir: "." } }] },
      { thinking: "MORE THOUGHTS", text: "Second message.\n", toolCalls: [{ name: "shell", arguments: { command: "true" } }] },
      { text: "The answer." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Looking.\nSecond message.\nThe answer.\n");
    const lines = r.stderr.split("\n");
    expect(lines[0]).toMatch(/^session: [0-9a-z]{26}$/);
    expect(lines).toContain('tool: shell {"command":"echo out; exit 4","workdir":"."}');
    expect(lines).toContain('tool: shell {"command":"true"}');
    expect(r.stderr).toContain("tool failed: out\ncommand exited with code 4\n");
    expect(r.stderr.match(/tool failed/g)).toHaveLength(1);
    expect(r.stderr + r.stdout).not.toContain("THOUGHTS");
  });

  test("a failure after a retry: the retry line, then rienda: <message> last, exit 1", async () => {
    s = await scenario();
    s.server.script({ error: { status: 503, message: "overloaded now" } }, { error: { status: 401, message: "key revoked" } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^session: /);
    expect(lines[1]).toMatch(/^transient error, retrying in [0-9.]+s: HTTP 503: overloaded now$/);
    expect(lines.at(-1)).toMatch(/^rienda: .*HTTP 401: key revoked/);
    expect(r.stdout).toBe("");
  });
});

describe("the run loop (contract §5)", () => {
  test("a call to a tool the agent does not declare, installed or built in, gets unknown tool \"x\" and does not run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [mark]" });
    s.inst.tool("mark", MARKING_TOOL);
    s.inst.tool("other", MARKING_TOOL);
    s.server.script(
      {
        toolCalls: [
          { name: "shell", arguments: { command: "touch shell-ran" } },
          { name: "other", arguments: { n: 1 } },
          { name: "nowhere", arguments: {} },
          { name: "mark", arguments: { n: 2 } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(['unknown tool "shell"', 'unknown tool "other"', 'unknown tool "nowhere"', "ran 2"]);
    expect(readdirSync(s.inst.workspace).sort()).toEqual(["ran-2"]);
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["mark"]);
  });

  test("arguments that are not a JSON object, or do not match parameters, get an error result and the tool does not run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [mark]" });
    s.inst.tool("mark", MARKING_TOOL);
    const bad = ["[1]", "null", "42", '"text"', "{not json", '{"n":"one"}', "{}"];
    s.server.script({ toolCalls: bad.map((rawArguments) => ({ name: "mark", rawArguments })) }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const results = jsonEvents(r.stdout).filter((e) => e.type === "tool_result");
    expect(results).toHaveLength(bad.length);
    for (const result of results) expect(result.isError).toBe(true);
    expect(readdirSync(s.inst.workspace)).toEqual([]);
  });

  test("tool calls run in order, each before the next", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: ["first", "second", "third"].map((word) => ({ name: "shell", arguments: { command: `echo ${word} >> order.txt; cat order.txt | wc -l` } })) },
      { text: "done" },
    );
    expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
    expect(readFileSync(join(s.inst.workspace, "order.txt"), "utf8")).toBe("first\nsecond\nthird\n");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["1", "2", "3"]);
  });
});

describe("the built-in shell tool (contract §5)", () => {
  test("parameters: command (string, required), workdir (string), timeout_ms (integer)", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const [tool] = (s.server.requests[0]!.body as { tools: { function: { name: string; parameters: Record<string, unknown> } }[] }).tools;
    expect(tool!.function.name).toBe("shell");
    const parameters = tool!.function.parameters as { type: string; properties: Record<string, { type: string }>; required: string[] };
    expect(parameters.type).toBe("object");
    expect(Object.fromEntries(Object.entries(parameters.properties).map(([k, v]) => [k, v.type]))).toEqual({ command: "string", workdir: "string", timeout_ms: "integer" });
    expect(parameters.required).toEqual(["command"]);
  });

  test("result text: stdout, then stderr:\\n…, then command exited with code N / command timed out after …, or (no output); isError on a non-zero code or a timeout", async () => {
    s = await scenario();
    mkdirSync(join(s.inst.workspace, "sub"));
    const cases: [Record<string, unknown>, string | RegExp, number][] = [
      [{ command: "echo out; echo err >&2; exit 3" }, "out\nstderr:\nerr\ncommand exited with code 3", 1],
      [{ command: "echo only-out" }, "only-out", 0],
      [{ command: "echo only-err >&2" }, "stderr:\nonly-err", 0],
      [{ command: "exit 7" }, "command exited with code 7", 1],
      [{ command: "true" }, "(no output)", 0],
      [{ command: "pwd", workdir: "sub" }, join(s.inst.workspace, "sub"), 0],
      [{ command: "echo before; sleep 5", timeout_ms: 300 }, /^before\ncommand timed out after /, 1],
    ];
    for (const [args, text, code] of cases) {
      const r = await s.inst.run(["tool", "run", "shell", "--args", JSON.stringify(args)]);
      expect(r.code).toBe(code);
      if (typeof text === "string") expect(r.stdout).toBe(`${text}\n`);
      else expect(r.stdout).toMatch(text);
    }
  });

  test("its output streams live to stderr of run, and a user tool named shell replaces it with the diagnostic", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ toolCalls: [{ name: "shell", arguments: { command: "echo streamed-out; echo streamed-err >&2" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).toContain("streamed-out\n");
    expect(r.stderr).toContain("streamed-err\n");
    expect(r.stdout).toBe("done\n");
    s.inst.tool("shell", 'module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "my shell"; } };');
    s.server.script({ toolCalls: [{ name: "shell", arguments: { command: "echo real" } }] }, { text: "done" });
    const mine = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(mine.stderr).toContain('tool "shell" replaces a built-in tool');
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["my shell"]);
  });
});

describe("the session file (contract §6)", () => {
  test("line 1 is the header with exactly its keys; messages carry theirs; blocks have the contract's shapes; tool results travel in user messages", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { thinking: "pondering", text: "Let me look.", toolCalls: [{ id: "call-a", name: "shell", arguments: { command: "exit 2" } }] },
      { text: "Done." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    const id = sessionIdFrom(r.stderr);
    const path = sessionFile(s.inst.home, id);
    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const [header, ...entries] = readEntries(path);
    expect(Object.keys(header!)).toEqual(["kind", "version", "id", "createdAt", "agent", "model", "workdir"]);
    expect(header).toMatchObject({ kind: "header", version: 1, id, agent: "coder", model: "p/m", workdir: s.inst.workspace });
    expect(new Date(String(header!.createdAt)).toISOString()).toBe(String(header!.createdAt));
    const messages = entries.filter((e) => e.kind === "message");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    for (const m of messages) expect(Object.keys(m).slice(0, 6)).toEqual(["kind", "id", "parentId", "createdAt", "role", "blocks"]);
    expect(messages[0]!.parentId).toBeNull();
    for (let i = 1; i < messages.length; i++) expect(messages[i]!.parentId).toBe(messages[i - 1]!.id);
    expect(messages[0]!.blocks).toEqual([{ type: "text", text: "hello" }]);
    expect(messages[1]).toMatchObject({ responseModel: "wire-model", responseStopReason: "tool_use", responseUsage: { inputTokens: 12, outputTokens: 7 } });
    expect(messages[1]!.blocks).toEqual([
      { type: "thinking", thinking: "pondering" },
      { type: "text", text: "Let me look." },
      { type: "tool_call", toolCallId: "call-a", toolCallName: "shell", toolCallArguments: { command: "exit 2" } },
    ]);
    expect(messages[2]!.blocks).toEqual([
      { type: "tool_result", toolResultCallId: "call-a", toolResult: [{ type: "text", text: "command exited with code 2" }], toolResultIsError: true },
    ]);
    expect(messages[3]).toMatchObject({ responseStopReason: "end_turn", blocks: [{ type: "text", text: "Done." }] });
  });

  test("a hand-written session's leaf, agent and model entries decide what a continued run sends and with which agent and model", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-wire" });
    s.inst.agent("planner", "---\ndescription: plans\nmodel: p/m\n---\nYou are the planner.\n");
    const id = "01jbranches000000000000000";
    const entries = [
      { kind: "header", version: 1, id, createdAt: "2026-01-01T00:00:00Z", agent: "coder", model: "p/m", workdir: s.inst.workspace },
      { kind: "message", id: "m1", parentId: null, createdAt: "2026-01-01T00:00:01Z", role: "user", blocks: [{ type: "text", text: "kept question" }] },
      { kind: "message", id: "m2", parentId: "m1", createdAt: "2026-01-01T00:00:02Z", role: "assistant", blocks: [{ type: "text", text: "kept answer" }] },
      { kind: "message", id: "m3", parentId: "m2", createdAt: "2026-01-01T00:00:03Z", role: "user", blocks: [{ type: "text", text: "abandoned question" }] },
      { kind: "message", id: "m4", parentId: "m3", createdAt: "2026-01-01T00:00:04Z", role: "assistant", blocks: [{ type: "text", text: "abandoned answer" }] },
      { kind: "leaf", targetId: "m2", createdAt: "2026-01-01T00:00:05Z" },
      { kind: "agent", id: "s1", parentId: "m2", createdAt: "2026-01-01T00:00:06Z", agent: "planner", previousAgent: "coder" },
      { kind: "model", id: "s2", parentId: "m2", createdAt: "2026-01-01T00:00:07Z", model: "p/other", previousModel: "p/m" },
      { kind: "title", createdAt: "2026-01-01T00:00:08Z", title: "Branches" },
      { kind: "from-the-future", createdAt: "2026-01-01T00:00:09Z", whatever: true },
    ];
    s.inst.write(join(s.inst.riendaPath("sessions"), workspaceDirName(s.inst.workspace), `${id}.jsonl`), entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
    s.server.script({ text: "continued" });
    const r = await s.inst.run(["run", "-s", id, "-p", "new question"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("continued\n");
    const body = s.server.requests[0]!.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe("other-wire");
    expect(body.messages).toEqual([
      { role: "system", content: "You are the planner." },
      { role: "user", content: "kept question" },
      { role: "assistant", content: "kept answer" },
      { role: "user", content: "new question" },
    ]);
    const listed = JSON.parse((await s.inst.run(["sessions", "--json"])).stdout) as { id: string; title: string; agent: string; model: string }[];
    expect(listed.find((x) => x.id === id)).toMatchObject({ title: "Branches", agent: "planner", model: "p/other" });
  });

  test("directories 0700, files 0600, under <slug>-<hash8> of the workspace", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const dir = workspaceDirName(s.inst.workspace);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(s.inst.riendaPath("sessions"))).toBe(0o700);
    expect(mode(s.inst.riendaPath("sessions", dir))).toBe(0o700);
    expect(mode(s.inst.riendaPath("sessions", dir, `${id}.jsonl`))).toBe(0o600);
  });
});
