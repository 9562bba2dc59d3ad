/**
 * The conversation commands of `rienda rpc` (docs/rpc.md, issue 41): a
 * steer reaches the running turn before its next request, a follow-up runs
 * after it, the active branch comes with entry ids that `fork` takes, a
 * branch runs the model it recorded, another session is opened in the same
 * process, the roster and the branch's stats are read, and images travel
 * inline (compaction_start and compaction_end: rpc-protocol.test.ts). Every line is checked
 * against schema/rpc.schema.json, commands included.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { RpcDriver, type RpcLine } from "../support/rpc-driver.ts";
import { schemaErrors, validCommand, validOutput } from "../support/rpc-schema.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
let rpc: RpcDriver | undefined;
afterEach(async () => {
  if (rpc && rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
  rpc = undefined;
  await s?.dispose();
  s = undefined;
});

/** A second model of provider `p`, for switches. */
const SECOND_MODEL = "      n:\n        id: wire-other";

/** A tool that waits until the file `go` exists in the workspace, so a test decides when it returns. */
const WAIT_FOR_GO = `module.exports = { description: "waits", parameters: { type: "object" }, execute(ctx) {
  ctx.file.write("waiting", "1");
  while (!ctx.file.exists("go")) ctx.sleep(20);
  return "went";
} };`;

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function start(args = ["-a", "coder"]): Promise<RpcDriver> {
  rpc = new RpcDriver(s!.inst, args);
  await rpc.waitFor((l) => l.type === "ready");
  return rpc;
}

/** Sends a command checked against the schema first: the tests speak only what docs/rpc.md defines. */
function send(driver: RpcDriver, command: Record<string, unknown>): void {
  if (!validCommand(command))
    throw new Error(`command does not match the schema: ${JSON.stringify(command)}\n${schemaErrors(validCommand)}`);
  driver.send(command);
}

/** The error of a refused command's response. */
function errorOf(line: RpcLine): { code: string; message: string } {
  expect(line.ok).toBe(false);
  return line.error as { code: string; message: string };
}

function expectValid(driver: RpcDriver): void {
  for (const line of driver.lines) {
    if (!validOutput(line))
      throw new Error(`line does not match the schema: ${JSON.stringify(line)}\n${schemaErrors(validOutput)}`);
  }
}

/** Role and text of each message a request carried (Chat Completions). */
function turnsOf(index: number): { role: string; text: string }[] {
  const body = s!.server.requests[index]!.body as { messages: { role: string; content: unknown }[] };
  return body.messages.map((m) => ({
    role: m.role,
    text: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  }));
}

describe("steer and follow_up", () => {
  test("a steer sent while a tool runs reaches the model before the next request; a follow-up runs after the turn", async () => {
    s = await scenario({ agentFrontmatter: "tools: [wait_for_go]" });
    s.inst.tool("wait_for_go", WAIT_FOR_GO);
    s.server.script(
      { toolCalls: [{ id: "c1", name: "wait_for_go", arguments: {} }] },
      { text: "noted the steer" },
      { text: "the follow-up answer" },
    );
    const driver = await start();
    send(driver, { id: "p", type: "prompt", text: "start the work" });
    await driver.waitFor((l) => l.type === "tool_call" && l.command_id === "p");
    send(driver, { id: "st", type: "steer", text: "also check the tests" });
    expect(await driver.response("st")).toMatchObject({ ok: true, data: { run: "p" } });
    send(driver, { id: "fu", type: "follow_up", text: "and then summarise" });
    expect(await driver.response("fu")).toMatchObject({ ok: true, data: { queued: 1 } });
    s.inst.file("go", "");
    expect(await driver.runEnd("p")).toMatchObject({ reason: "end_turn" });
    expect(driver.eventsOf("p").find((l) => l.type === "steer")).toMatchObject({
      text: "also check the tests",
      files: [],
    });
    // The second request of the turn carries the tool's result, then the steered message.
    const second = turnsOf(1);
    expect(second.at(-2)).toMatchObject({ role: "tool" });
    expect(second.at(-1)).toEqual({ role: "user", text: "also check the tests" });
    expect(await driver.runEnd("fu")).toMatchObject({ reason: "end_turn" });
    expect(turnsOf(2).at(-1)).toEqual({ role: "user", text: "and then summarise" });
    expect(s.server.requests).toHaveLength(3);
    expectValid(driver);
  });

  test("a steer with no run going on starts one, as prompt does", async () => {
    s = await scenario();
    s.server.script({ text: "hello" });
    const driver = await start();
    send(driver, { id: "st", type: "steer", text: "are you there?" });
    expect(await driver.response("st")).toMatchObject({ ok: true, data: { queued: 0 } });
    expect(await driver.runEnd("st")).toMatchObject({ reason: "end_turn" });
    expectValid(driver);
  });
});

describe("the branch", () => {
  test("get_messages lists the branch with ids; a fork from an earlier answer runs the model that answer's branch recorded", async () => {
    s = await scenario({ modelExtra: SECOND_MODEL });
    s.server.script({ text: "first answer" }, { text: "second answer" }, { text: "on the fork" });
    const driver = await start();
    send(driver, { id: "p1", type: "prompt", text: "one" });
    await driver.runEnd("p1");
    send(driver, { id: "m", type: "set_model", model: "p/n" });
    await driver.response("m");
    send(driver, { id: "p2", type: "prompt", text: "two" });
    await driver.runEnd("p2");
    send(driver, { id: "g", type: "get_messages" });
    const messages = ((await driver.response("g")).data as { messages: { id: string; role: string; text: string }[] })
      .messages;
    expect(messages.map((m) => `${m.role}:${m.text}`)).toEqual([
      "user:one",
      "assistant:first answer",
      "user:two",
      "assistant:second answer",
    ]);
    send(driver, { id: "f", type: "fork", entry_id: messages[1]!.id });
    expect(await driver.response("f")).toMatchObject({ ok: true });
    send(driver, { id: "st", type: "get_state" });
    expect(await driver.response("st")).toMatchObject({ data: { model: "p/m" } });
    send(driver, { id: "p3", type: "prompt", text: "three" });
    await driver.runEnd("p3");
    expect((s.server.requests[2]!.body as { model: string }).model).toBe("wire-model");
    expect((s.server.requests[1]!.body as { model: string }).model).toBe("wire-other");
    expectValid(driver);
  });

  test("switch_session opens another session of the workspace; an unknown one is refused and nothing changes", async () => {
    s = await scenario();
    s.server.script({ text: "in the first" }, { text: "in the second" }, { text: "back in the first" });
    const driver = await start();
    send(driver, { id: "p1", type: "prompt", text: "first session" });
    const first = ((await driver.response("p1")).data as { session_id: string }).session_id;
    await driver.runEnd("p1");
    send(driver, { id: "n", type: "new_session" });
    await driver.response("n");
    send(driver, { id: "p2", type: "prompt", text: "second session" });
    await driver.runEnd("p2");
    send(driver, { id: "bad", type: "switch_session", session_id: "01nope" });
    expect(await driver.response("bad")).toMatchObject({ ok: false, error: { code: "refused" } });
    send(driver, { id: "sw", type: "switch_session", session_id: first });
    expect(await driver.response("sw")).toMatchObject({ ok: true, data: { session_id: first } });
    send(driver, { id: "p3", type: "prompt", text: "again" });
    expect(await driver.response("p3")).toMatchObject({ data: { session_id: first } });
    await driver.runEnd("p3");
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("in the first");
    expect(JSON.stringify(s.server.requests[2]!.body)).not.toContain("in the second");
    expectValid(driver);
  });
});

describe("reading", () => {
  test("get_models lists the roster with windows, levels and keys; get_stats sums the branch", async () => {
    s = await scenario({ modelExtra: "        context_window: 1000\n        cost: { input: 1, output: 2 }" });
    s.server.script({ text: "counted", usage: { input: 100, output: 10 } });
    const driver = await start();
    send(driver, { id: "gm", type: "get_models" });
    const models = (await driver.response("gm")).data as { models: Record<string, unknown>[]; current: string };
    expect(models.current).toBe("p/m");
    expect(models.models.find((m) => m.ref === "p/m")).toMatchObject({ provider: "p", context_window: 1000 });
    send(driver, { id: "s0", type: "get_stats" });
    expect((await driver.response("s0")).data).toMatchObject({ session_id: null, messages: 0, answers: 0, cost: null });
    send(driver, { id: "p", type: "prompt", text: "count" });
    await driver.runEnd("p");
    send(driver, { id: "s1", type: "get_stats" });
    const stats = (await driver.response("s1")).data as {
      tokens: { input: number; output: number };
      cost: number;
      context: { share: number };
    };
    expect(stats).toMatchObject({
      messages: 2,
      answers: 1,
      tokens: { input: 100, output: 10 },
      cost_complete: true,
      context: { tokens: 100, window: 1000, share: 0.1 },
    });
    expect(stats.cost).toBeCloseTo(0.00012, 8);
    expectValid(driver);
  });
});

describe("images inline", () => {
  test("a prompt's base64 image reaches the model; bytes that are not an image, or not base64, are refused naming it", async () => {
    s = await scenario();
    s.server.script({ text: "a red dot" });
    const driver = await start();
    send(driver, { id: "bad", type: "prompt", text: "look", images: [{ data: "not base64!", name: "x.png" }] });
    expect(errorOf(await driver.response("bad"))).toEqual({
      code: "refused",
      message: 'image "x.png": "data" is not base64 text',
    });
    send(driver, { id: "txt", type: "prompt", text: "look", images: [{ data: btoa("plain text"), name: "t.png" }] });
    expect(errorOf(await driver.response("txt")).message).toContain("not an image");
    send(driver, { id: "p", type: "prompt", text: "what is this?", images: [{ data: PNG, name: "dot.png" }] });
    await driver.runEnd("p");
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain(`data:image/png;base64,${PNG}`);
    expect(s.server.requests).toHaveLength(1);
    expectValid(driver);
  });
});

describe("the new commands' errors", () => {
  test("malformed fields are named; nothing runs", async () => {
    s = await scenario();
    const driver = await start();
    const bad: Array<[Record<string, unknown>, string, string]> = [
      [{ id: 1, type: "steer", text: 42 }, "invalid_field", '"text"'],
      [{ id: 2, type: "steer", text: "  " }, "invalid_field", "empty"],
      [{ id: 3, type: "switch_session" }, "invalid_field", '"session_id"'],
      [{ id: 4, type: "get_stats", verbose: true }, "invalid_field", '"verbose"'],
      [{ id: 5, type: "prompt", text: "x", images: "a.png" }, "invalid_field", "list of images"],
      [
        { id: 6, type: "prompt", text: "x", images: [{ data: "AAAA", mediaType: "image/png" }] },
        "invalid_field",
        "list of images",
      ],
      [{ id: 7, type: "get_messages", session: "x" }, "invalid_field", '"session"'],
    ];
    for (const [command] of bad) driver.send(command);
    for (const [command, code, words] of bad) {
      const error = errorOf(await driver.response(command.id as number));
      expect(error.code).toBe(code);
      expect(error.message).toContain(words);
    }
    expect(s.server.requests).toHaveLength(0);
    expectValid(driver);
  });
});
