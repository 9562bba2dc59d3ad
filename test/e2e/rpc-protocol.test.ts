/**
 * What docs/rpc.md promises a client written from it alone: every
 * response's `data` has its command's schema, a `confirm_request` names
 * the tool call that asks and an abort says when it cancels one, a
 * follow-up whose file cannot be read is refused as it is sent, an aborted
 * answer is kept as far as it came, `compact` answers after
 * its events, `shutdown`'s response is the last line, and the synopsis
 * lists every flag. Every line is checked against schema/rpc.schema.json.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { BINARY } from "../support/instance.ts";
import { RpcDriver } from "../support/rpc-driver.ts";
import { schemaErrors, validOutput } from "../support/rpc-schema.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile } from "../support/session-reader.ts";

let s: Scenario | undefined;
let rpc: RpcDriver | undefined;
afterEach(async () => {
  if (rpc && rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
  rpc = undefined;
  await s?.dispose();
  s = undefined;
});

function expectValid(driver: RpcDriver): void {
  for (const line of driver.lines) {
    if (!validOutput(line))
      throw new Error(`line does not match the schema: ${JSON.stringify(line)}\n${schemaErrors(validOutput)}`);
  }
}

async function start(args = ["-a", "coder"]): Promise<RpcDriver> {
  rpc = new RpcDriver(s!.inst, args);
  await rpc.waitFor((l) => l.type === "ready");
  return rpc;
}

const ASKS = `module.exports = {
  description: "Asks first.",
  parameters: { type: "object", properties: {} },
  execute(ctx) { return ctx.confirm({ title: "Go", body: "really?" }) ? "went" : "stayed"; },
};
`;

describe("responses", () => {
  test("each command's data has its documented shape, and a wrong shape fails the schema", async () => {
    s = await scenario();
    s.server.script({ text: "one" }, { text: "summary" });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "hello" });
    await driver.runEnd("p");
    for (const command of [
      { id: "st", type: "get_state" },
      { id: "ls", type: "list_sessions" },
      { id: "sm", type: "set_model", model: "p/m" },
      { id: "sa", type: "set_agent", agent: "coder" },
      { id: "th", type: "set_thinking", level: "off" },
      { id: "lm", type: "list_models" },
      { id: "fk", type: "fork" },
      { id: "ns", type: "new_session" },
    ]) {
      driver.send(command);
      expect(await driver.response(command.id)).toMatchObject({ ok: true });
    }
    expectValid(driver);
    const state = driver.lines.find((l) => l.type === "response" && l.id === "st")!;
    expect(state.data).toMatchObject({
      agent: "coder",
      model: "p/m",
      thinking: "off",
      workdir: s.inst.workspace,
      running: null,
      queued: 0,
      waiting_confirms: [],
    });
    // The schema says what data holds: a response whose data misses a field does not pass.
    expect(validOutput({ ...state, data: { agent: "coder" } })).toBe(false);
    expect(validOutput({ type: "response", id: "x", command: "fork", ok: true, data: {} })).toBe(false);
  });
});

describe("confirmations", () => {
  test("confirm_request names the tool call; an abort cancels it with confirm_cancelled, before run_end", async () => {
    s = await scenario({ agentFrontmatter: "tools: [asks]" });
    s.inst.tool("asks", ASKS);
    s.server.script({ toolCalls: [{ id: "call_7", name: "asks", arguments: {} }] });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "go" });
    const ask = await driver.waitFor((l) => l.type === "confirm_request");
    expect(ask).toEqual({
      type: "confirm_request",
      command_id: "p",
      confirm_id: "confirm-1",
      tool_call_id: "call_7",
      title: "Go",
      body: "really?",
    });
    driver.send({ id: "a", type: "abort" });
    await driver.runEnd("p");
    const order = driver.lines.map((l) => l.type);
    expect(order.indexOf("confirm_cancelled")).toBeGreaterThan(order.indexOf("confirm_request"));
    expect(order.indexOf("confirm_cancelled")).toBeLessThan(order.indexOf("run_end"));
    expect(driver.lines.find((l) => l.type === "confirm_cancelled")).toEqual({
      type: "confirm_cancelled",
      command_id: "p",
      confirm_id: "confirm-1",
    });
    expectValid(driver);
    expect(driver.lines.find((l) => l.type === "tool_result")).toMatchObject({ id: "call_7", isError: true });
    driver.send({ id: "late", type: "confirm_answer", confirm_id: "confirm-1", answer: true });
    expect(await driver.response("late")).toMatchObject({ ok: false, error: { code: "unknown_confirm" } });
  });

  test("a subagent's tool asks: tool_call_id is its call, parent the call that started the subagent", async () => {
    s = await scenario({ agentFrontmatter: "agents: [helper]" });
    s.inst.agent("helper", "---\ndescription: Helps.\nmodel: p/m\ntools: [asks]\n---\nYou help.\n");
    s.inst.tool("asks", ASKS);
    s.server.script(
      { toolCalls: [{ id: "call_h", name: "agent__helper", arguments: { prompt: "help" } }] },
      { toolCalls: [{ id: "call_a", name: "asks", arguments: {} }] },
      { text: "helped" },
      { text: "done" },
    );
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "go" });
    const ask = await driver.waitFor((l) => l.type === "confirm_request");
    expect(ask).toMatchObject({ tool_call_id: "call_a", parent: "call_h" });
    expect(driver.lines.find((l) => l.type === "tool_call" && l.id === "call_a")).toMatchObject({ parent: "call_h" });
    driver.send({ id: "y", type: "confirm_answer", confirm_id: ask.confirm_id, answer: true });
    expect(await driver.runEnd("p")).toMatchObject({ reason: "end_turn" });
    expectValid(driver);
  });
});

describe("runs", () => {
  test("a follow-up whose file cannot be read is refused when it is sent, and the run goes on", async () => {
    s = await scenario();
    s.server.script({ text: "first", chunkDelayMs: 150 });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "first" });
    await driver.response("p");
    driver.send({ id: "f", type: "follow_up", text: "second", files: ["missing.txt"] });
    const refused = await driver.response("f");
    expect(refused).toMatchObject({ ok: false, error: { code: "refused" } });
    expect(JSON.stringify(refused)).toContain("missing.txt");
    expect(await driver.runEnd("p")).toMatchObject({ reason: "end_turn" });
    expect(driver.eventsOf("f")).toEqual([]);
    expect(s.server.requests).toHaveLength(1);
    expectValid(driver);
  });

  test("an aborted answer is kept as far as it came, and sent back marked as interrupted", async () => {
    s = await scenario();
    s.server.script({ text: "PARTIAL-WORDS and more", hang: true }, { text: "fresh" });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "slow" });
    const id = ((await driver.response("p")).data as { session_id: string }).session_id;
    await driver.waitFor((l) => l.type === "text_delta");
    driver.send({ id: "a", type: "abort" });
    await driver.runEnd("p");
    driver.send({ id: "n", type: "prompt", text: "next" });
    await driver.runEnd("n");
    const kept = messageEntries(sessionFile(s.inst.home, id)).find(
      (e) => e.role === "assistant" && e.interrupted === "user",
    );
    expect(kept?.blocks).toEqual([{ type: "text", text: "PARTIAL-WORDS " }]);
    const sent = JSON.stringify(s.server.requests[1]!.body);
    expect(sent).toContain('"PARTIAL-WORDS "');
    expect(sent).toContain("The user interrupted your previous answer");
  });

  test("compact answers after its events", async () => {
    s = await scenario({
      modelExtra: "        context_window: 100000",
      configExtra: "compaction:\n  keep_recent_tokens: 1",
    });
    s.server.script(
      { text: "a long answer ".repeat(50) },
      { text: "another long answer ".repeat(50) },
      { text: "the summary" },
    );
    const driver = await start();
    for (const id of ["p1", "p2"]) {
      driver.send({ id, type: "prompt", text: `question ${id} `.repeat(40) });
      await driver.runEnd(id);
    }
    driver.send({ id: "c", type: "compact" });
    const response = await driver.response("c");
    expect(response.data).toEqual({ compacted: true });
    // The compaction says when it starts and ends, besides its notices.
    const kinds = driver.eventsOf("c").map((l) => l.type);
    expect(kinds.indexOf("compaction_end")).toBeGreaterThan(kinds.indexOf("compaction_start"));
    expect(kinds.indexOf("compaction_start")).toBeGreaterThanOrEqual(0);
    expect(driver.eventsOf("c").find((l) => l.type === "compaction_end")).toMatchObject({ compacted: true });
    const last = driver.lines.filter((l) => l.command_id === "c" || l.id === "c").at(-1);
    expect(last).toBe(response);
    expectValid(driver);
  });

  test("shutdown: its response is the last line, then the process exits 0", async () => {
    s = await scenario();
    s.server.script({ hang: true });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "slow" });
    await s.server.waitForRequests(1);
    driver.send({ id: "bye", type: "shutdown" });
    const exit = await driver.exited;
    expect(exit.code).toBe(0);
    expect(driver.lines.at(-1)).toMatchObject({ type: "response", id: "bye", ok: true, data: {} });
    expect(driver.lines.at(-2)).toMatchObject({ type: "run_end", command_id: "p", reason: "interrupted" });
  });
});

test("the synopsis of docs/rpc.md lists every flag of rienda rpc --help", () => {
  const help = spawnSync(BINARY, ["rpc", "--help"], { encoding: "utf8" }).stdout;
  const flags = [...help.matchAll(/^\s+(?:(-[A-Za-z]), )?(--[a-z-]+)/gm)].map((m) => m[1] ?? m[2]!);
  expect(flags.length).toBeGreaterThan(5);
  const docs = readFileSync(resolve(import.meta.dir, "../../docs/rpc.md"), "utf8");
  const synopsis = /```\n(rienda rpc [^\n]*)\n```/.exec(docs)![1]!;
  for (const flag of flags) expect(synopsis).toContain(flag);
});
