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
import { mkdirSync, readdirSync, readFileSync, statSync, existsSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  jsonEvents,
  scenario,
  toolNamesOf,
  toolResultsOf,
  type Scenario,
  PROTOCOLS,
  configFor,
  systemOf,
} from "../support/scenario.ts";
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
      {
        thinking: "SECRET THOUGHTS",
        text: "Looking.",
        toolCalls: [{ name: "shell", arguments: { command: "echo out; exit 4", workdir: "." } }],
      },
      {
        thinking: "MORE THOUGHTS",
        text: "Second message.\n",
        toolCalls: [{ name: "shell", arguments: { command: "true" } }],
      },
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
    s.server.script(
      { error: { status: 503, message: "overloaded now" } },
      { error: { status: 401, message: "key revoked" } },
    );
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
  test('a call to a tool the agent does not declare, installed or built in, gets unknown tool "x" and does not run', async () => {
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
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      'unknown tool "shell"',
      'unknown tool "other"',
      'unknown tool "nowhere"',
      "ran 2",
    ]);
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
      {
        toolCalls: ["first", "second", "third"].map((word) => ({
          name: "shell",
          arguments: { command: `echo ${word} >> order.txt; cat order.txt | wc -l` },
        })),
      },
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
    const [tool] = (
      s.server.requests[0]!.body as { tools: { function: { name: string; parameters: Record<string, unknown> } }[] }
    ).tools;
    expect(tool!.function.name).toBe("shell");
    const parameters = tool!.function.parameters as {
      type: string;
      properties: Record<string, { type: string }>;
      required: string[];
    };
    expect(parameters.type).toBe("object");
    expect(Object.fromEntries(Object.entries(parameters.properties).map(([k, v]) => [k, v.type]))).toEqual({
      command: "string",
      workdir: "string",
      timeout_ms: "integer",
    });
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
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "echo streamed-out; echo streamed-err >&2" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).toContain("streamed-out\n");
    expect(r.stderr).toContain("streamed-err\n");
    expect(r.stdout).toBe("done\n");
    s.inst.tool(
      "shell",
      'module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "my shell"; } };',
    );
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
      {
        thinking: "pondering",
        text: "Let me look.",
        toolCalls: [{ id: "call-a", name: "shell", arguments: { command: "exit 2" } }],
      },
      { text: "Done." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    const id = sessionIdFrom(r.stderr);
    const path = sessionFile(s.inst.home, id);
    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const [header, ...entries] = readEntries(path);
    expect(Object.keys(header!)).toEqual(["kind", "version", "id", "createdAt", "agent", "model", "workdir"]);
    expect(header).toMatchObject({
      kind: "header",
      version: 1,
      id,
      agent: "coder",
      model: "p/m",
      workdir: s.inst.workspace,
    });
    expect(new Date(String(header!.createdAt)).toISOString()).toBe(String(header!.createdAt));
    const messages = entries.filter((e) => e.kind === "message");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    for (const m of messages)
      expect(Object.keys(m).slice(0, 6)).toEqual(["kind", "id", "parentId", "createdAt", "role", "blocks"]);
    expect(messages[0]!.parentId).toBeNull();
    for (let i = 1; i < messages.length; i++) expect(messages[i]!.parentId).toBe(messages[i - 1]!.id);
    expect(messages[0]!.blocks).toEqual([{ type: "text", text: "hello" }]);
    expect(messages[1]).toMatchObject({
      responseModel: "wire-model",
      responseStopReason: "tool_use",
      responseUsage: { inputTokens: 12, outputTokens: 7 },
    });
    expect(messages[1]!.blocks).toEqual([
      { type: "thinking", thinking: "pondering" },
      { type: "text", text: "Let me look." },
      { type: "tool_call", toolCallId: "call-a", toolCallName: "shell", toolCallArguments: { command: "exit 2" } },
    ]);
    expect(messages[2]!.blocks).toEqual([
      {
        type: "tool_result",
        toolResultCallId: "call-a",
        toolResult: [{ type: "text", text: "command exited with code 2" }],
        toolResultIsError: true,
      },
    ]);
    expect(messages[3]).toMatchObject({ responseStopReason: "end_turn", blocks: [{ type: "text", text: "Done." }] });
  });

  test("a hand-written session's leaf, agent and model entries decide what a continued run sends and with which agent and model", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-wire" });
    s.inst.agent("planner", "---\ndescription: plans\nmodel: p/m\n---\nYou are the planner.\n");
    const id = "01jbranches000000000000000";
    const entries = [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2026-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: s.inst.workspace,
      },
      {
        kind: "message",
        id: "m1",
        parentId: null,
        createdAt: "2026-01-01T00:00:01Z",
        role: "user",
        blocks: [{ type: "text", text: "kept question" }],
      },
      {
        kind: "message",
        id: "m2",
        parentId: "m1",
        createdAt: "2026-01-01T00:00:02Z",
        role: "assistant",
        blocks: [{ type: "text", text: "kept answer" }],
      },
      {
        kind: "message",
        id: "m3",
        parentId: "m2",
        createdAt: "2026-01-01T00:00:03Z",
        role: "user",
        blocks: [{ type: "text", text: "abandoned question" }],
      },
      {
        kind: "message",
        id: "m4",
        parentId: "m3",
        createdAt: "2026-01-01T00:00:04Z",
        role: "assistant",
        blocks: [{ type: "text", text: "abandoned answer" }],
      },
      { kind: "leaf", targetId: "m2", createdAt: "2026-01-01T00:00:05Z" },
      {
        kind: "agent",
        id: "s1",
        parentId: "m2",
        createdAt: "2026-01-01T00:00:06Z",
        agent: "planner",
        previousAgent: "coder",
      },
      {
        kind: "model",
        id: "s2",
        parentId: "m2",
        createdAt: "2026-01-01T00:00:07Z",
        model: "p/other",
        previousModel: "p/m",
      },
      { kind: "title", createdAt: "2026-01-01T00:00:08Z", title: "Branches" },
      { kind: "from-the-future", createdAt: "2026-01-01T00:00:09Z", whatever: true },
    ];
    s.inst.write(
      join(s.inst.riendaPath("sessions"), workspaceDirName(s.inst.workspace), `${id}.jsonl`),
      entries.map((e) => JSON.stringify(e)).join("\n") + "\n",
    );
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
    const listed = JSON.parse((await s.inst.run(["sessions", "--json"])).stdout) as {
      id: string;
      title: string;
      agent: string;
      model: string;
    }[];
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

describe("loop guard (contract §5: 3 identical rounds, same calls and same results)", () => {
  test("calls that differ only in their ids (as a real model sends them) are the same calls: the third round stops the run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const call = { name: "shell", arguments: { command: "echo again" } };
    s.server.script({ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "never" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(s.server.requests).toHaveLength(3);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(/^rienda: .*same tool calls.*3 times/);
  });

  test("the same calls with changing results are not a loop: the run goes on to its answer", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const call = { name: "shell", arguments: { command: "echo x >> count; wc -l < count" } };
    s.server.script(
      { toolCalls: [call] },
      { toolCalls: [call] },
      { toolCalls: [call] },
      { toolCalls: [call] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(s.server.requests).toHaveLength(5);
  });
});

describe("the built-in shell's timeout_ms (contract §5: default 2 min, capped at 30 min)", () => {
  test("a timeout above the cap is capped, not refused: the command runs; a negative one or a fraction is an error result and nothing runs", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "echo capped", timeout_ms: 10 * 60 * 60 * 1000 } }] },
      { toolCalls: [{ name: "shell", arguments: { command: "touch negative", timeout_ms: -5 } }] },
      { toolCalls: [{ name: "shell", arguments: { command: "touch fraction", timeout_ms: 1.5 } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["capped"]);
    expect(r.stderr).toContain("tool failed: timeout_ms must not be negative");
    expect(r.stderr).toContain('tool failed: invalid arguments for tool "shell"');
    expect(existsSync(join(s.inst.workspace, "negative"))).toBe(false);
    expect(existsSync(join(s.inst.workspace, "fraction"))).toBe(false);
  });
});

describe("stderr line 1 (contract §4)", () => {
  test("is the session line even when config notices, a shadowing diagnostic and the continued workspace are reported", async () => {
    s = await scenario({
      protocol: "anthropic",
      modelExtra: "        temperature: 0.5\n        thinking_max_tokens: 1024",
      agentFrontmatter: "tools: [shell]",
    });
    s.inst.tool(
      "shell",
      'module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "user shell"; } };',
    );
    s.server.script({ text: "one" }, { text: "two" });
    const first = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(first.code).toBe(0);
    const lines = first.stderr.split("\n");
    expect(lines[0]).toMatch(/^session: \S+$/);
    expect(lines.slice(1).join("\n")).toContain('tool "shell" replaces a built-in tool');
    expect(lines.slice(1).join("\n")).toContain("temperature");
    const id = sessionIdFrom(first.stderr);
    const next = await s.inst.run(["run", "-s", id, "-p", "y"], { cwd: s.inst.root });
    expect(next.code).toBe(0);
    expect(next.stderr.split("\n")[0]).toBe(`session: ${id}`);
    expect(next.stderr).toContain(s.inst.workspace);
  });
});

describe("tools omitted entirely when the agent has none (contract §7)", () => {
  for (const protocol of PROTOCOLS) {
    test(`no tools key, and tools: [] alike (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: []" });
      s.inst.agent("bare", "---\ndescription: d\nmodel: p/m\n---\nBare.\n");
      s.server.script({ text: "1" }, { text: "2" });
      expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
      expect((await s.inst.run(["run", "-a", "bare", "-p", "x"])).code).toBe(0);
      for (const request of s.server.requests) {
        const body = request.body as Record<string, unknown>;
        expect(Object.keys(body)).not.toContain("tools");
        expect(Object.keys(body)).not.toContain("tool_choice");
      }
    });
  }
});

describe("agents are global only (contract §3)", () => {
  test("-a with a path never reads an agent file from the workspace, before any request", async () => {
    s = await scenario();
    s.inst.file("evil.md", "---\ndescription: d\nmodel: p/m\n---\nFROM THE WORKSPACE\n");
    for (const id of ["../../../work/evil", join(s.inst.workspace, "evil")]) {
      const r = await s.inst.run(["run", "-a", id, "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^rienda: /);
    }
    expect(s.server.requests).toHaveLength(0);
    s.server.script({ text: "ok" });
    expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).not.toContain("FROM THE WORKSPACE");
  });
});

describe("provider errors inside a stream (contract §7: transient ones retried, others fail at once)", () => {
  for (const protocol of PROTOCOLS) {
    test(`an overloaded error after some text is retried and the partial text never printed; an invalid request fails at once (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script(
        { text: "PARTIAL", streamError: { type: "overloaded_error", message: "Overloaded" } },
        { text: "fine" },
      );
      const retried = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(retried.code).toBe(0);
      expect(retried.stdout).toBe("fine\n");
      expect(retried.stderr).toMatch(/\ntransient error, retrying in [0-9.]+s: .*Overloaded\n/);

      s.server.reset();
      s.server.script(
        { text: "PARTIAL", streamError: { type: "invalid_request_error", message: "bad request here" } },
        { text: "never" },
      );
      const failed = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(failed.code).toBe(1);
      expect(s.server.requests).toHaveLength(1);
      expect(failed.stderr).not.toContain("retrying");
      expect(failed.stderr.trimEnd().split("\n").at(-1)).toMatch(/^rienda: .*bad request here/);
      expect(failed.stdout).not.toContain("PARTIAL");
    });
  }
});

describe("config.yaml is strict, Go-era files still load (contract §2)", () => {
  test("YAML anchors and merge keys, a BOM, CRLF line ends and a leading --- load as Go's yaml.v3 read them", async () => {
    s = await scenario();
    const yaml = configFor(s.server.url)
      .replace(
        "    models:\n      m:\n        id: wire-model\n",
        "    models:\n      base: &base { id: wire-model, max_tokens: 77 }\n      m:\n        <<: *base\n        temperature: 0.5\n",
      )
      .replace(/\n/g, "\r\n");
    s.inst.config(`\uFEFF---\r\n${yaml}`);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const body = s.server.requests[0]!.body as Record<string, unknown>;
    expect([body.model, body.max_tokens, body.temperature]).toEqual(["wire-model", 77, 0.5]);
  });
});

describe("the workspace of a run started in a shell (drop-in with the Go Rienda)", () => {
  test("a workspace reached through a symbolic link is the path the shell shows ($PWD), as Go's os.Getwd gave it", async () => {
    s = await scenario();
    const real = join(s.inst.root, "real-project");
    const link = join(s.inst.root, "linked-project");
    mkdirSync(real);
    symlinkSync(real, link);
    // A session the Go Rienda wrote for this workspace, filed under the path it saw.
    const goId = "01jgowrote0000000000000000";
    s.inst.write(
      s.inst.riendaPath("sessions", workspaceDirName(link), `${goId}.jsonl`),
      JSON.stringify({
        kind: "header",
        version: 1,
        id: goId,
        createdAt: "2026-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: link,
      }) + "\n",
    );
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { cwd: link, env: { PWD: link } });
    expect(r.code).toBe(0);
    const id = sessionIdFrom(r.stderr);
    expect(existsSync(s.inst.riendaPath("sessions", workspaceDirName(link), `${id}.jsonl`))).toBe(true);
    expect(readEntries(sessionFile(s.inst.home, id))[0]!.workdir).toBe(link);
    const listed = await s.inst.run(["sessions", "--json"], { cwd: link, env: { PWD: link } });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((x) => x.id).sort()).toEqual([goId, id].sort());

    // Continued from there, it runs where it was started, with nothing to say about another workspace.
    s.server.script({ text: "again" });
    const again = await s.inst.run(["run", "-s", id, "-p", "more"], { cwd: link, env: { PWD: link } });
    expect(again.stderr).toBe(`session: ${id}\n`);
    expect(again.stdout).toBe("again\n");

    // A $PWD that names another directory is not believed.
    const elsewhere = await s.inst.run(["sessions", "--json"], { cwd: link, env: { PWD: s.inst.workspace } });
    expect(elsewhere.stdout.trim()).toBe("[]");
  });
});

describe("a Go-era config.yaml (contract: a ~/.rienda of the Go Rienda works unchanged)", () => {
  test('protocol: "" beside a preset, preset: "" beside a protocol and thinking_level: "" load as if left out', async () => {
    s = await scenario();
    const url = s.server.url;
    s.inst.config(
      [
        "providers:",
        "  p:",
        "    protocol: openai_chat_completions",
        '    preset: ""',
        `    base_url: ${url}/v1`,
        "    models:",
        '      m: { id: wire-model, thinking_level: "" }',
        "  q:",
        "    preset: anthropic",
        '    protocol: ""',
        `    base_url: ${url}`,
        "    models:",
        "      big: {}",
        "",
      ].join("\n"),
    );
    s.server.script({ text: "from chat" }, { text: "from anthropic" });
    const chat = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(chat.stderr).not.toContain("rienda:");
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe("from chat\n");
    const anthropic = await s.inst.run(["run", "-a", "coder", "-m", "q/big", "-p", "x"]);
    expect(anthropic.code).toBe(0);
    expect(anthropic.stdout).toBe("from anthropic\n");
    const [first, second] = s.server.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    expect(first!.body).not.toHaveProperty("reasoning_effort");
    expect(second!.path).toBe("/v1/messages");
    expect(second!.headers["anthropic-version"]).toBe("2023-06-01");
  });

  test("numbers written as yaml.v3 read them (32_000, 0b…) reach the wire, ctx.config and ctx.agent.config as those numbers", async () => {
    s = await scenario({
      protocol: "anthropic",
      modelExtra: "        max_tokens: 32_000\n        context_window: 200_000",
      configExtra:
        "compaction: { reserve_tokens: 16_384 }\nconfig:\n  settings: { max_bytes: 1_000_000, flags: 0b101, label: '1_000' }",
      agentFrontmatter: "tools: [settings]\nconfig:\n  settings: { max_lines: 2_000 }",
    });
    s.inst.tool(
      "settings",
      'module.exports = { description: "shows its settings", parameters: { type: "object" }, execute(ctx) { return JSON.stringify([ctx.config.config.settings, ctx.agent.config.settings]); } };',
    );
    s.server.script({ toolCalls: [{ name: "settings", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect((s.server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(32000);
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual([
      { max_bytes: 1000000, flags: 5, label: "1_000" },
      { max_lines: 2000 },
    ]);
  });

  test("an extension named under config: with nothing after it, in config.yaml or the agent, loads with no settings", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [settings]\nconfig:\n  settings:",
      configExtra: "config:\n  settings:\n  other: { a: 1 }",
    });
    s.inst.tool(
      "settings",
      'module.exports = { description: "shows its settings", parameters: { type: "object" }, execute(ctx) { return JSON.stringify([ctx.agent.config, ctx.config.config]); } };',
    );
    s.server.script({ toolCalls: [{ name: "settings", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual([
      { settings: {} },
      { settings: null, other: { a: 1 } },
    ]);
  });
});

describe("-s with -a, without -m (contract §4: switch agent from there on)", () => {
  test("the run goes on with the new agent and that agent's own model, both recorded, and a later -s keeps them", async () => {
    s = await scenario({ modelExtra: "      big:\n        id: big-wire" });
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/big\n---\nYou review code.\n");
    s.server.script({ text: "one" }, { text: "two" }, { text: "three" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const switched = await s.inst.run(["run", "-s", id, "-a", "reviewer", "-p", "y"]);
    expect(switched.code).toBe(0);
    expect((s.server.requests[1]!.body as { model: string }).model).toBe("big-wire");
    const entries = readEntries(sessionFile(s.inst.home, id));
    // In the Go shape, on the chain (go-current.md §5).
    expect(entries.find((e) => e.kind === "agent")).toMatchObject({ agentId: "reviewer", previousAgentId: "coder" });
    expect(entries.find((e) => e.kind === "model")).toMatchObject({ modelRef: "p/big", previousModelRef: "p/m" });
    await s.inst.run(["run", "-s", id, "-p", "z"]);
    expect((s.server.requests[2]!.body as { model: string }).model).toBe("big-wire");
  });
});
