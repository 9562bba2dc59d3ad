/**
 * Issue 39, item 13: `rienda rpc` reads a line of at most 32 MiB. A longer
 * one (a client sending hundreds of MB without a newline) is answered with
 * a `line_too_long` error as soon as it passes the cap, dropped up to its
 * newline, and the process serves on.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { RpcDriver } from "../support/rpc-driver.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
let rpc: RpcDriver | undefined;
afterEach(async () => {
  if (rpc) await rpc.close();
  rpc = undefined;
  await s?.dispose();
  s = undefined;
});

const MIB = 1024 * 1024;

describe("rpc line cap (issue 39, item 13)", () => {
  test("a line past 32 MiB gets line_too_long before its newline arrives; the next command works", async () => {
    s = await scenario();
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    const chunk = `{"id":"big","type":"prompt","text":"${"x".repeat(MIB - 40)}`;
    for (let i = 0; i < 40; i++) rpc.child.stdin.write(i === 0 ? chunk : "x".repeat(MIB));
    const refused = await rpc.waitFor(
      (l) => l.type === "response" && (l.error as { code?: string } | undefined)?.code === "line_too_long",
      "line_too_long",
      30_000,
    );
    expect(refused).toMatchObject({ id: null, command: null, ok: false });
    expect((refused.error as { message: string }).message).toBe(
      "the line is longer than 33,554,432 bytes; it was dropped up to its end, and the next line is read as usual",
    );
    rpc.child.stdin.write(`${"y".repeat(MIB)}"}\n`);
    rpc.send({ id: "s", type: "get_state" });
    const state = await rpc.response("s");
    expect(state.ok).toBe(true);
    expect(rpc.lines.filter((l) => l.type === "response" && l.ok === false)).toHaveLength(1);
    expect(await rpc.close()).toEqual({ code: 0, signal: null });
    rpc = undefined;
  });

  test("CRLF line ends and a last line without a newline are read as before", async () => {
    s = await scenario();
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.child.stdin.write('{"id":1,"type":"get_state"}\r\n{"id":2,"type":"get_state"}');
    rpc.child.stdin.end();
    await rpc.response(1);
    expect((await rpc.response(2)).ok).toBe(true);
    rpc = undefined;
  });
});
