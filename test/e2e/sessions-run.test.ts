import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PROTOCOLS, scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Every text the request carried, in order, whatever the protocol. */
function textsOf(body: unknown): string {
  return JSON.stringify(body);
}

describe("sessions written by rienda run", () => {
  test("a run creates a session file with the header, the prompt, the answer and the tool results", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { text: "checking", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo 42" } }] },
      { text: "it is 42" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "what is it?"]);
    expect(r.code).toBe(0);
    const id = sessionIdFrom(r.stderr);
    const path = sessionFile(s.inst.home, id);
    expect(path.endsWith(`/${id}.jsonl`)).toBe(true);
    const entries = readEntries(path);
    expect(entries[0]).toMatchObject({
      kind: "header",
      version: 1,
      id,
      agent: "coder",
      model: "p/m",
      workdir: s.inst.workspace,
    });
    expect(typeof entries[0]!.createdAt).toBe("string");
    const messages = messageEntries(path);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[0]!.blocks).toEqual([{ type: "text", text: "what is it?" }]);
    expect(messages[1]!.blocks).toEqual([
      { type: "text", text: "checking" },
      { type: "tool_call", toolCallId: "c1", toolCallName: "shell", toolCallArguments: { command: "echo 42" } },
    ]);
    expect(messages[2]!.blocks).toEqual([
      { type: "tool_result", toolResultCallId: "c1", toolResult: [{ type: "text", text: "42" }] },
    ]);
    expect(messages[3]!.blocks).toEqual([{ type: "text", text: "it is 42" }]);
    expect(messages[1]!.responseStopReason).toBe("tool_use");
    expect(messages[3]!.responseModel).toBe("wire-model");
    for (let i = 1; i < messages.length; i++) expect(messages[i]!.parentId).toBe(messages[i - 1]!.id);
  });

  test("session directories are 0700 and files 0600", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const path = sessionFile(s.inst.home, sessionIdFrom(r.stderr));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dirname(path))).mode & 0o777).toBe(0o700);
  });

  test("every run without -s creates a new session; ids sort by creation time", async () => {
    s = await scenario();
    s.server.script({ text: "one" }, { text: "two" });
    const a = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const b = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "y"])).stderr);
    expect(a).not.toBe(b);
    expect([b, a].sort()).toEqual([a, b]);
    expect(sessionFiles(s.inst.home)).toHaveLength(2);
  });

  for (const protocol of PROTOCOLS) {
    test(`-s continues with the whole history sent to the model (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: [shell]" });
      s.server.script(
        { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo first-result" } }] },
        { text: "first answer" },
      );
      const r1 = await s.inst.run(["run", "-a", "coder", "-p", "first prompt"]);
      const id = sessionIdFrom(r1.stderr);
      s.server.script({ text: "second answer" });
      const r2 = await s.inst.run(["run", "-s", id, "-p", "second prompt"]);
      expect(r2.code).toBe(0);
      expect(sessionIdFrom(r2.stderr)).toBe(id);
      expect(r2.stdout).toBe("second answer\n");
      const body = textsOf(s.server.requests[2]!.body);
      for (const text of ["first prompt", "first answer", "second prompt"]) expect(body).toContain(text);
      expect(toolResultsOf(s.server.requests[2]!)).toEqual(["first-result"]);
      expect(messageEntries(sessionFile(s.inst.home, id))).toHaveLength(6);
    });
  }

  test("-s with -a and -m switches agent and model from there on, recorded in the session", async () => {
    s = await scenario({ modelExtra: "      big:\n        id: big-wire" });
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\n---\nYou review code.\n");
    s.server.script({ text: "one" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    s.server.script({ text: "two" });
    await s.inst.run(["run", "-s", id, "-a", "reviewer", "-m", "p/big", "-p", "y"]);
    expect((s.server.requests[1]!.body as { model: string }).model).toBe("big-wire");
    expect(textsOf(s.server.requests[1]!.body)).toContain("You review code.");
    const entries = readEntries(sessionFile(s.inst.home, id));
    expect(entries.find((e) => e.kind === "agent")).toMatchObject({ agentId: "reviewer" });
    expect(entries.find((e) => e.kind === "model")).toMatchObject({ modelRef: "p/big" });
    // A later continue without flags keeps the switched agent and model.
    s.server.script({ text: "three" });
    await s.inst.run(["run", "-s", id, "-p", "z"]);
    expect((s.server.requests[2]!.body as { model: string }).model).toBe("big-wire");
    expect(textsOf(s.server.requests[2]!.body)).toContain("You review code.");
  });

  test("an unknown agent or model for -s is refused and nothing is written", async () => {
    s = await scenario();
    s.server.script({ text: "one" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const path = sessionFile(s.inst.home, id);
    const before = readFileSync(path, "utf8");
    const r1 = await s.inst.run(["run", "-s", id, "-a", "nobody", "-p", "y"]);
    const r2 = await s.inst.run(["run", "-s", id, "-m", "p/nothing", "-p", "y"]);
    expect(r1.code).toBe(1);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('unknown model "nothing"');
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(s.server.requests).toHaveLength(1);
  });

  test("an unknown session id is refused", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-s", "01nosuchsession0000000000", "-p", "y"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("01nosuchsession0000000000");
  });

  test("a torn last line and unknown entry kinds are ignored, and the session continues", async () => {
    s = await scenario();
    s.server.script({ text: "one" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const path = sessionFile(s.inst.home, id);
    appendFileSync(path, '{"kind":"future-thing","x":1}\n{"kind":"message","id":"torn","parentId":nu');
    s.server.script({ text: "two" });
    const r = await s.inst.run(["run", "-s", id, "-p", "again"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("two\n");
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(messageEntries(path).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  test("a session written by hand in the contract's format continues", async () => {
    s = await scenario();
    const dir = `${s.inst.riendaPath("sessions")}/handmade-00000000`;
    const id = "01jhandmade0000000000000000";
    const lines = [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2025-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: s.inst.workspace,
      },
      {
        kind: "message",
        id: "m1",
        parentId: null,
        createdAt: "2025-01-01T00:00:01Z",
        role: "user",
        blocks: [{ type: "text", text: "old question" }],
      },
      {
        kind: "message",
        id: "m2",
        parentId: "m1",
        createdAt: "2025-01-01T00:00:02Z",
        role: "assistant",
        blocks: [{ type: "text", text: "old answer" }],
      },
    ];
    s.inst.write(`${dir}/${id}.jsonl`, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    s.server.script({ text: "new answer" });
    const r = await s.inst.run(["run", "-s", id, "-p", "new question"]);
    expect(r.code).toBe(0);
    expect(textsOf(s.server.requests[0]!.body)).toContain("old answer");
  });

  test("an interrupt during a tool records a result for every call and the session continues", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({
      toolCalls: [
        { id: "c1", name: "shell", arguments: { command: "echo started; sleep 30" } },
        { id: "c2", name: "shell", arguments: { command: "echo never" } },
      ],
    });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitForText(() => run.stderr(), "started");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const id = sessionIdFrom(r.stderr);
    const results = messageEntries(sessionFile(s.inst.home, id))
      .flatMap((m) => m.blocks as { type: string; toolResultCallId?: string; toolResultIsError?: boolean }[])
      .filter((b) => b.type === "tool_result");
    expect(results.map((b) => [b.toolResultCallId, b.toolResultIsError])).toEqual([
      ["c1", true],
      ["c2", true],
    ]);
    s.server.script({ text: "resumed" });
    const r2 = await s.inst.run(["run", "-s", id, "-p", "go on"]);
    expect(r2.stdout).toBe("resumed\n");
    expect(toolResultsOf(s.server.requests[1]!)).toHaveLength(2);
  });

  test("a session file edited to lose its last newline still continues", async () => {
    s = await scenario();
    s.server.script({ text: "one" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const path = sessionFile(s.inst.home, id);
    writeFileSync(path, readFileSync(path, "utf8").replace(/\n$/, ""));
    s.server.script({ text: "two" });
    expect((await s.inst.run(["run", "-s", id, "-p", "y"])).code).toBe(0);
    expect(messageEntries(path)).toHaveLength(4);
  });

  test("sessions are kept per workspace", async () => {
    s = await scenario();
    s.inst.file("other/.keep", "");
    s.server.script({ text: "a" }, { text: "b" });
    await s.inst.run(["run", "-a", "coder", "-p", "here"]);
    await s.inst.run(["run", "-a", "coder", "-p", "there", "-C", "other"]);
    const here = await s.inst.run(["sessions", "--json"]);
    const there = await s.inst.run(["sessions", "--json", "-C", "other"]);
    expect((JSON.parse(here.stdout) as { title: string }[]).map((x) => x.title)).toEqual(["here"]);
    expect((JSON.parse(there.stdout) as { title: string }[]).map((x) => x.title)).toEqual(["there"]);
    expect(new Set(sessionFiles(s.inst.home).map((f) => dirname(f))).size).toBe(2);
  });
});

async function waitForText(read: () => string, text: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!read().includes(text)) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for "${text}" in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
