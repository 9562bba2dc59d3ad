/**
 * `rienda rpc` end to end: a program's three-prompt conversation with an
 * abort in the middle and a ctx.confirm answered over the wire; bad input
 * that never ends the process; EOF during a run; switches, fork, compact,
 * state and listings; models and thinking levels; every line both ways checked against
 * schema/rpc.schema.json; the lock shared with `rienda run`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { scenario, type Scenario } from "../support/scenario.ts";
import { RpcDriver, type RpcLine } from "../support/rpc-driver.ts";
import { schemaErrors, validCommand, validOutput } from "../support/rpc-schema.ts";
import { messageEntries, readEntries, sessionFile } from "../support/session-reader.ts";

let s: Scenario | undefined;
let rpc: RpcDriver | undefined;
afterEach(async () => {
  if (rpc && rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
  rpc = undefined;
  await s?.dispose();
  s = undefined;
});

/** Every line the process wrote matches the schema, and so does every well-formed command the test sent. */
function expectAllValid(driver: RpcDriver, { commands = true } = {}): void {
  for (const line of driver.lines) {
    if (!validOutput(line))
      throw new Error(`line does not match the schema: ${JSON.stringify(line)}\n${schemaErrors(validOutput)}`);
  }
  if (!commands) return;
  for (const sent of driver.sent) {
    const value = JSON.parse(sent) as unknown;
    if (!validCommand(value))
      throw new Error(`command does not match the schema: ${sent}\n${schemaErrors(validCommand)}`);
  }
}

const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) return { text: "cancelled", isError: true };
    return "pushed";
  },
};
`;

describe("rienda rpc", () => {
  test("a three-prompt conversation: a confirmation answered over rpc, an abort in the middle, then a prompt that knows both", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script(
      { toolCalls: [{ id: "c1", name: "publish", arguments: {} }] },
      { text: "Published." },
      { hang: true },
      { text: "Third answer." },
    );
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    const ready = await rpc.waitFor((l) => l.type === "ready");
    expect(rpc.lines[0]).toBe(ready);
    expect(ready).toMatchObject({ rpc_version: 1, agent: "coder", model: "p/m", session_id: null });

    rpc.send({ id: "p1", type: "prompt", text: "publish it" });
    const started = await rpc.response("p1");
    expect(started).toMatchObject({ ok: true, command: "prompt" });
    const sessionId = (started.data as { session_id: string }).session_id;
    const ask = await rpc.waitFor((l) => l.type === "confirm_request");
    expect(ask).toMatchObject({ command_id: "p1", title: "Publish", body: "Push the current branch?" });
    // The run waits for the answer.
    expect(s.server.requests).toHaveLength(1);
    rpc.send({ id: "a1", type: "confirm_answer", confirm_id: ask.confirm_id, answer: true });
    expect(await rpc.response("a1")).toMatchObject({ ok: true });
    expect(await rpc.runEnd("p1")).toMatchObject({ reason: "end_turn", tools: { calls: 1, failed: 0, refused: 0 } });
    expect(rpc.eventsOf("p1").find((e) => e.type === "tool_result")).toMatchObject({
      name: "publish",
      text: "pushed",
      isError: false,
    });
    expect(rpc.eventsOf("p1")[0]).toMatchObject({ type: "run_start", sessionId });

    rpc.send({ id: "p2", type: "prompt", text: "now something slow" });
    await rpc.response("p2");
    await s.server.waitForRequests(3);
    rpc.send({ id: "busy", type: "prompt", text: "too soon" });
    expect(await rpc.response("busy")).toMatchObject({ ok: false, error: { code: "busy" } });
    rpc.send({ id: "x2", type: "abort" });
    expect(await rpc.response("x2")).toMatchObject({ ok: true, data: { command_id: "p2" } });
    expect(await rpc.runEnd("p2")).toMatchObject({ reason: "interrupted" });

    rpc.send({ id: "p3", type: "prompt", text: "third" });
    expect(await rpc.runEnd("p3")).toMatchObject({ reason: "end_turn" });
    const body = JSON.stringify(s.server.requests[3]!.body);
    for (const text of ["publish it", "Published.", "now something slow", "interrupted this request", "third"])
      expect(body).toContain(text);

    rpc.send({ id: "st", type: "get_state" });
    expect(await rpc.response("st")).toMatchObject({
      ok: true,
      data: { session_id: sessionId, running: null, queued: 0 },
    });
    rpc.send({ id: "bye", type: "shutdown" });
    expect(await rpc.response("bye")).toMatchObject({ ok: true });
    expect((await rpc.exited).code).toBe(0);
    const path = sessionFile(s.inst.home, sessionId);
    expect(messageEntries(path).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "user",
      "assistant",
    ]);
    expect(readEntries(path).some((e) => e.kind === "interruption")).toBe(true);
    expect(existsSync(path.replace(/\.jsonl$/, ".lock"))).toBe(false);
    expectAllValid(rpc);
  });

  test("bad input gets an error response naming it, and the next command works", async () => {
    s = await scenario();
    s.server.script({ text: "still here" });
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    const bad: Array<[string, string, string]> = [
      ["not json at all", "parse_error", "not JSON"],
      ['["a list"]', "invalid_command", "JSON object"],
      ['{"type":"prompt","text":"x"}', "invalid_field", '"id"'],
      ['{"id":1}', "invalid_field", '"type"'],
      ['{"id":2,"type":"dance"}', "unknown_command", '"dance"'],
      ['{"id":3,"type":"prompt","text":42}', "invalid_field", '"text"'],
      ['{"id":4,"type":"prompt","text":"x","colour":"red"}', "invalid_field", '"colour"'],
      ['{"id":5,"type":"confirm_answer","confirm_id":"nope","answer":true}', "unknown_confirm", "nope"],
      ['{"id":6,"type":"abort"}', "not_running", "no run"],
      ['{"id":8,"type":"prompt","text":"x","files":["missing.txt"]}', "refused", "missing.txt"],
      ['{"id":9,"type":"fork"}', "refused", "nothing to fork"],
      // Last: a switch is under way until its answer, and other commands would be busy meanwhile.
      ['{"id":7,"type":"set_agent","agent":"ghost"}', "refused", "ghost"],
    ];
    for (const [line] of bad) rpc.send(line);
    await rpc.response(7);
    const responses = rpc.lines.filter((l) => l.type === "response");
    expect(responses).toHaveLength(bad.length);
    bad.forEach(([, code, words], i) => {
      const r = responses[i] as RpcLine & { error: { code: string; message: string } };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe(code);
      expect(r.error.message).toContain(words);
    });
    s.inst.file("notes.txt", "the attached notes\n");
    rpc.send({ id: "ok", type: "prompt", text: "are you there?", files: ["notes.txt"] });
    expect(await rpc.runEnd("ok")).toMatchObject({ reason: "end_turn" });
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("the attached notes");
    expect((await rpc.close()).code).toBe(0);
    expectAllValid(rpc, { commands: false });
  });

  test("EOF during a run ends it as an interrupt and exits 0, the session consistent", async () => {
    s = await scenario();
    s.server.script({ hang: true }, { text: "after" });
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: 1, type: "prompt", text: "hang" });
    const sessionId = ((await rpc.response(1)).data as { session_id: string }).session_id;
    await s.server.waitForRequests(1);
    const exit = await rpc.close();
    expect(exit.code).toBe(0);
    expect(rpc.lines.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted", command_id: 1 });
    const path = sessionFile(s.inst.home, sessionId);
    expect(readEntries(path).at(-1)).toMatchObject({ kind: "interruption" });
    // Consistent: it continues.
    const r = await s.inst.run(["run", "-s", sessionId, "-p", "go on"]);
    expect(r.code).toBe(0);
    expectAllValid(rpc);
  });

  test("EOF while a confirmation waits answers it no, ends the run as interrupted and exits 0", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ id: "c1", name: "publish", arguments: {} }] }, { text: "never" });
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: 1, type: "prompt", text: "publish" });
    await rpc.waitFor((l) => l.type === "confirm_request");
    expect((await rpc.close()).code).toBe(0);
    expect(rpc.lines.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });
    expect(s.server.requests).toHaveLength(1);
    expectAllValid(rpc);
  });

  test("follow_up queues after the run; set_model, set_agent, fork, compact, new_session and list_sessions", async () => {
    s = await scenario({
      modelExtra: "        context_window: 100000",
      configExtra:
        "  m2:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:1/v1\n    api_key: k\n    models:\n      other: {}\ncompaction:\n  keep_recent_tokens: 1",
    });
    s.inst.agent("writer", "---\ndescription: Writes.\nmodel: p/m\n---\nYou write.\n");
    s.server.script(
      { text: "one", chunkDelayMs: 50 },
      { text: "two" },
      { text: "SUMMARY OF IT" },
      { text: "after compaction" },
    );
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: "p", type: "prompt", text: "first" });
    rpc.send({ id: "f", type: "follow_up", text: "second" });
    expect(await rpc.response("f")).toMatchObject({ ok: true, data: { queued: 1 } });
    expect(await rpc.runEnd("f")).toMatchObject({ reason: "end_turn" });
    expect(rpc.lines.filter((l) => l.type === "response" && l.id === "f")).toHaveLength(1);
    expect(rpc.lines.findIndex((l) => l.type === "run_end" && l.command_id === "p")).toBeLessThan(
      rpc.lines.findIndex((l) => l.type === "run_start" && l.command_id === "f"),
    );
    const sessionId = ((await rpc.response("p")).data as { session_id: string }).session_id;

    rpc.send({ id: "m", type: "set_model", model: "m2/other" });
    expect(await rpc.response("m")).toMatchObject({ ok: true, data: { model: "m2/other" } });
    rpc.send({ id: "m0", type: "set_model", model: "p/m" });
    await rpc.response("m0");
    rpc.send({ id: "g", type: "set_agent", agent: "writer" });
    expect(await rpc.response("g")).toMatchObject({ ok: true, data: { agent: "writer" } });
    expect(
      readEntries(sessionFile(s.inst.home, sessionId))
        .filter((e) => e.kind === "model" || e.kind === "agent")
        .map((e) => e.kind),
    ).toEqual(["model", "model", "agent"]);

    rpc.send({ id: "c", type: "compact" });
    expect(await rpc.response("c")).toMatchObject({ ok: true, data: { compacted: true } });
    expect(
      readEntries(sessionFile(s.inst.home, sessionId)).some(
        (e) => e.kind === "compaction" && e.summary === "SUMMARY OF IT",
      ),
    ).toBe(true);

    rpc.send({ id: "k", type: "fork" });
    const forkId = ((await rpc.response("k")).data as { session_id: string }).session_id;
    expect(forkId).not.toBe(sessionId);
    expect(readEntries(sessionFile(s.inst.home, forkId))[0]).toMatchObject({ forkedFrom: sessionId });
    rpc.send({ id: "p4", type: "prompt", text: "in the fork" });
    expect(await rpc.runEnd("p4")).toMatchObject({ reason: "end_turn" });
    expect(JSON.stringify(s.server.requests.at(-1)!.body)).toContain("SUMMARY OF IT");
    expect(messageEntries(sessionFile(s.inst.home, forkId)).at(-1)).toMatchObject({ role: "assistant" });

    rpc.send({ id: "n", type: "new_session" });
    await rpc.response("n");
    rpc.send({ id: "st", type: "get_state" });
    expect(await rpc.response("st")).toMatchObject({ data: { session_id: null, agent: "writer" } });
    rpc.send({ id: "ls", type: "list_sessions" });
    const listed = ((await rpc.response("ls")).data as { sessions: { id: string }[] }).sessions.map((x) => x.id);
    expect(listed).toContain(sessionId);
    expect(listed).toContain(forkId);
    expect((await rpc.close()).code).toBe(0);
    expectAllValid(rpc);
  });

  test("a session held by rpc is refused to rienda run and the other way round, so their lines never interleave", async () => {
    s = await scenario();
    s.server.script({ text: "one" }, { text: "two" });
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: 1, type: "prompt", text: "x" });
    const sessionId = ((await rpc.response(1)).data as { session_id: string }).session_id;
    await rpc.runEnd(1);
    const run = await s.inst.run(["run", "-s", sessionId, "-p", "y"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is open in another rienda");
    await rpc.close();
    const other = new RpcDriver(s.inst, ["-s", sessionId]);
    await other.waitFor((l) => l.type === "ready");
    expect(other.lines[0]).toMatchObject({ session_id: sessionId, agent: "coder" });
    const refused = new RpcDriver(s.inst, ["-s", sessionId]);
    const fatal = await refused.waitFor((l) => l.type === "fatal");
    expect(fatal).toMatchObject({ rpc_version: 1 });
    expect(String(fatal.message)).toContain("is open in another rienda");
    expect((await refused.exited).code).toBe(1);
    await other.close();
    expectAllValid(other);
    expectAllValid(refused);
  });
});

describe("rienda rpc: models and thinking levels", () => {
  test("--thinking, set_thinking and set_model put the level on the wire; list_models lists the roster; an unknown level is refused with the model's levels; state.json is not written", async () => {
    s = await scenario({ modelExtra: "      b:\n        id: wire-b" });
    s.inst.agent("bot", "---\ndescription: An agent without a model.\n---\nBe brief.\n");
    s.server.script({ text: "one" }, { text: "two" }, { text: "three" });
    rpc = new RpcDriver(s.inst, ["-a", "bot", "-m", "p/m", "--thinking", "low"]);
    const ready = await rpc.waitFor((l) => l.type === "ready");
    expect(ready).toMatchObject({
      agent: "bot",
      model: "p/m",
      thinking: "low",
      thinking_levels: ["off", "minimal", "low", "medium", "high"],
    });
    rpc.send({ id: 1, type: "prompt", text: "x" });
    const sessionId = ((await rpc.response(1)).data as { session_id: string }).session_id;
    await rpc.runEnd(1);
    expect(s.server.requests[0]!.body).toMatchObject({ model: "wire-model", reasoning_effort: "low" });

    rpc.send({ id: 2, type: "set_thinking", level: "high" });
    expect(await rpc.response(2)).toMatchObject({ ok: true, data: { agent: "bot", model: "p/m", thinking: "high" } });
    rpc.send({ id: 3, type: "set_thinking", level: "max" });
    expect(await rpc.response(3)).toMatchObject({
      ok: false,
      error: {
        code: "refused",
        message: 'thinking max: p/m has no thinking level "max" (its levels: off, minimal, low, medium, high)',
      },
    });
    rpc.send({ id: 4, type: "prompt", text: "y" });
    await rpc.runEnd(4);
    expect(s.server.requests[1]!.body).toMatchObject({ model: "wire-model", reasoning_effort: "high" });

    rpc.send({ id: 5, type: "list_models" });
    expect(await rpc.response(5)).toMatchObject({ ok: true, data: { models: ["p/b", "p/m"] } });
    rpc.send({ id: 6, type: "set_model", model: "p/b" });
    expect(await rpc.response(6)).toMatchObject({ ok: true, data: { model: "p/b", thinking: "high" } });
    rpc.send({ id: 7, type: "set_thinking", level: "off" });
    await rpc.response(7);
    rpc.send({ id: 8, type: "get_state" });
    expect(await rpc.response(8)).toMatchObject({ ok: true, data: { model: "p/b", thinking: "off" } });
    rpc.send({ id: 9, type: "prompt", text: "z" });
    await rpc.runEnd(9);
    const third = s.server.requests[2]!.body as Record<string, unknown>;
    expect(third.model).toBe("wire-b");
    expect("reasoning_effort" in third).toBe(false);
    expect((await rpc.close()).code).toBe(0);
    // A program's switches are not the user's picks.
    expect(existsSync(s.inst.riendaPath("state.json"))).toBe(false);
    // Each level chosen is on the session's branch (the model switch kept "high": nothing to record).
    const levels = readEntries(sessionFile(s.inst.home, sessionId))
      .filter((e) => e.kind === "thinking")
      .map((e) => e.thinkingLevel);
    expect(levels).toEqual(["low", "high", "off"]);
    expectAllValid(rpc);

    // -s continues with the branch's model and level.
    s.server.script({ text: "four" });
    rpc = new RpcDriver(s.inst, ["-s", sessionId]);
    expect(await rpc.waitFor((l) => l.type === "ready")).toMatchObject({ model: "p/b", thinking: "off" });
    rpc.send({ id: 1, type: "set_thinking", level: "medium" });
    await rpc.response(1);
    expect((await rpc.close()).code).toBe(0);
    rpc = new RpcDriver(s.inst, ["-s", sessionId]);
    expect(await rpc.waitFor((l) => l.type === "ready")).toMatchObject({ model: "p/b", thinking: "medium" });
    rpc.send({ id: 2, type: "prompt", text: "w" });
    await rpc.runEnd(2);
    expect(s.server.requests[3]!.body).toMatchObject({ model: "wire-b", reasoning_effort: "medium" });
    expect((await rpc.close()).code).toBe(0);
  });

  test("an agent without a model and several offered: fatal naming -m, before any request", async () => {
    s = await scenario({ modelExtra: "      b:\n        id: wire-b" });
    s.inst.agent("bot", "---\ndescription: An agent without a model.\n---\nBe brief.\n");
    rpc = new RpcDriver(s.inst, ["-a", "bot"]);
    const fatal = await rpc.waitFor((l) => l.type === "fatal");
    expect(String(fatal.message)).toContain(
      'agent "bot" names no model: choose one with -m provider/model (offered: p/b, p/m)',
    );
    expect((await rpc.exited).code).toBe(1);
    expect(s.server.requests).toHaveLength(0);
    expectAllValid(rpc);
  });
});
