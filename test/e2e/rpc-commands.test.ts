/**
 * `rienda rpc` commands a client written from docs/rpc.md alone trips on:
 * a refused prompt leaves nothing pending for the next one, a blank prompt
 * is refused as `run -p ""` is, and ids come back exactly as sent (strings
 * and safe integers), each malformed field named for what is wrong with
 * it, a duplicate of a command still in flight refused.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { RpcDriver, type RpcLine } from "../support/rpc-driver.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

let s: Scenario | undefined;
let rpc: RpcDriver | undefined;
afterEach(async () => {
  if (rpc && rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
  rpc = undefined;
  await s?.dispose();
  s = undefined;
});

type ErrorResponse = RpcLine & { ok: boolean; error: { code: string; message: string } };

async function start(): Promise<RpcDriver> {
  rpc = new RpcDriver(s!.inst, ["-a", "coder"]);
  await rpc.waitFor((l) => l.type === "ready");
  return rpc;
}

/** The JSON of every request the provider got. */
const sent = (): string[] => s!.server.requests.map((r) => JSON.stringify(r.body));

describe("a refused prompt's files do not leak into the next prompt", () => {
  const cases: { what: string; between: Record<string, unknown>[] }[] = [
    { what: "the next prompt", between: [] },
    { what: "after new_session", between: [{ id: "n", type: "new_session" }] },
  ];
  for (const { what, between } of cases) {
    test(what, async () => {
      s = await scenario();
      s.inst.file("note.txt", "NOTE-CONTENT\n");
      s.server.script({ text: "one" }, { text: "two" });
      const driver = await start();
      if (what !== "the next prompt") {
        driver.send({ id: "first", type: "prompt", text: "start a session" });
        await driver.runEnd("first");
      }
      driver.send({ id: "bad", type: "prompt", text: "with files", files: ["note.txt", "missing.txt"] });
      expect(await driver.response("bad")).toMatchObject({ ok: false, error: { code: "refused" } });
      for (const command of between) {
        driver.send(command);
        await driver.response(command.id as string);
      }
      driver.send({ id: "plain", type: "prompt", text: "no files here" });
      expect(await driver.runEnd("plain")).toMatchObject({ reason: "end_turn" });
      expect(sent().every((body) => !body.includes("NOTE-CONTENT"))).toBe(true);
    });
  }

  test("after fork", async () => {
    s = await scenario();
    s.inst.file("note.txt", "NOTE-CONTENT\n");
    s.server.script({ text: "one" }, { text: "two" });
    const driver = await start();
    driver.send({ id: "first", type: "prompt", text: "start a session" });
    await driver.runEnd("first");
    driver.send({ id: "bad", type: "prompt", text: "with files", files: ["note.txt", "missing.txt"] });
    await driver.response("bad");
    driver.send({ id: "f", type: "fork" });
    expect(await driver.response("f")).toMatchObject({ ok: true });
    driver.send({ id: "plain", type: "prompt", text: "no files here" });
    await driver.runEnd("plain");
    expect(sent().every((body) => !body.includes("NOTE-CONTENT"))).toBe(true);
  });

  test("a follow-up whose file fails is refused as it is queued and leaves nothing for the prompt after it", async () => {
    s = await scenario();
    s.inst.file("note.txt", "NOTE-CONTENT\n");
    s.server.script({ text: "one", chunkDelayMs: 200 }, { text: "two" });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "first" });
    await driver.response("p");
    driver.send({ id: "fu", type: "follow_up", text: "queued", files: ["note.txt", "missing.txt"] });
    expect(await driver.response("fu")).toMatchObject({
      ok: false,
      error: { code: "refused", message: expect.stringContaining("missing.txt") },
    });
    await driver.runEnd("p");
    driver.send({ id: "plain", type: "prompt", text: "no files here" });
    await driver.runEnd("plain");
    expect(s.server.requests).toHaveLength(2);
    expect(sent().every((body) => !body.includes("NOTE-CONTENT"))).toBe(true);
  });
});

describe("prompts need words", () => {
  test("an empty or blank prompt or follow-up is refused naming the field; nothing is sent or stored", async () => {
    s = await scenario();
    const driver = await start();
    const blank = [
      { id: 1, type: "prompt", text: "" },
      { id: 2, type: "prompt", text: " \n\t" },
      { id: 3, type: "follow_up", text: "" },
    ];
    for (const command of blank) driver.send(command);
    for (const command of blank) {
      const response = (await driver.response(command.id)) as ErrorResponse;
      expect(response.ok).toBe(false);
      expect(response.error).toEqual({
        code: "invalid_field",
        message: `field "text" of ${command.type} is empty: a prompt needs words`,
      });
    }
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });
});

describe("ids", () => {
  test("a string or a safe integer comes back exactly as sent, the largest safe integer included", async () => {
    s = await scenario();
    const driver = await start();
    driver.send('{"id":9007199254740991,"type":"get_state"}');
    driver.send('{"id":-42,"type":"get_state"}');
    driver.send('{"id":"9007199254740993","type":"get_state"}');
    await driver.waitFor((l) => l.type === "response" && l.id === "9007199254740993");
    expect(driver.lines.filter((l) => l.type === "response").map((l) => [l.id, l.ok])).toEqual([
      [9007199254740991, true],
      [-42, true],
      ["9007199254740993", true],
    ]);
  });

  test("each malformed id or type is named for what is wrong with it", async () => {
    s = await scenario();
    const driver = await start();
    const bad: [string, string][] = [
      [
        '{"id":9007199254740993,"type":"get_state"}',
        'field "id" must be a string or a whole number within ±(2^53 - 1): this number is beyond the safe integers',
      ],
      [
        '{"id":1e400,"type":"get_state"}',
        'field "id" must be a string or a whole number within ±(2^53 - 1): this number is beyond the safe integers',
      ],
      ['{"id":1.5,"type":"get_state"}', "this number is not a whole number"],
      ['{"id":{"n":1},"type":"get_state"}', 'field "id" must be a string or a whole number, not an object'],
      ['{"id":null,"type":"get_state"}', 'field "id" must be a string or a whole number, not null'],
      ['{"type":"get_state"}', 'field "id" is required'],
      ['{"id":5,"type":7}', 'field "type" must be a string (the command\'s name), not a number'],
      ['{"id":6}', 'field "type" is required'],
    ];
    for (const [line] of bad) driver.send(line);
    await driver.waitFor((l) => l.type === "response" && l.id === 6);
    const responses = driver.lines.filter((l) => l.type === "response") as ErrorResponse[];
    expect(responses).toHaveLength(bad.length);
    bad.forEach(([, words], i) => {
      expect(responses[i]!.error.code).toBe("invalid_field");
      expect(responses[i]!.error.message).toContain(words);
    });
  });

  test("a duplicate id of a command in flight is refused; once it is over the id may come again", async () => {
    s = await scenario();
    s.server.script({ hang: true }, { text: "again" });
    const driver = await start();
    driver.send({ id: "p", type: "prompt", text: "slow" });
    await driver.response("p");
    await s.server.waitForRequests(1);
    driver.send({ id: "p", type: "follow_up", text: "same id" });
    const duplicate = (await driver.waitFor(
      (l) => l.type === "response" && l.id === "p" && l.ok === false,
    )) as ErrorResponse;
    expect(duplicate.error).toEqual({
      code: "duplicate_id",
      message:
        'command "p" is still in flight (its run or its response is not over): give each command an id of its own',
    });
    driver.send({ id: "q", type: "follow_up", text: "queued" });
    await driver.response("q");
    driver.send({ id: "q", type: "get_state" });
    expect(
      (
        (await driver.waitFor(
          (l) => l.type === "response" && l.id === "q" && l.command === "get_state",
        )) as ErrorResponse
      ).error.code,
    ).toBe("duplicate_id");
    driver.send({ id: "a", type: "abort" });
    await driver.runEnd("p");
    const from = driver.lines.length;
    driver.send({ id: "p", type: "prompt", text: "the id is free again" });
    expect(
      await driver.waitFor((l) => l.type === "run_end" && l.command_id === "p", "the second run of p", 15_000, from),
    ).toMatchObject({ reason: "end_turn" });
  });
});
