import { afterEach, describe, expect, test } from "bun:test";
import { scenario, type Scenario, jsonEvents } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("rienda run --json", () => {
  test("streams one JSON event per line, run_start first and run_end last", async () => {
    s = await scenario({ agentFrontmatter: "tools: [echo]" });
    s.inst.tool(
      "echo",
      'module.exports = { description: "echo", parameters: { type: "object", properties: { say: { type: "string" } } }, execute(ctx, a) { ctx.log("logging " + a.say + "\\n"); return "said " + a.say; } };',
    );
    s.server.script(
      { thinking: "hmm", text: "calling", toolCalls: [{ id: "c1", name: "echo", arguments: { say: "hi" } }] },
      { text: "all done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events[0]).toMatchObject({ type: "run_start", version: 1, agent: "coder", model: "p/m" });
    expect(typeof events[0]!.sessionId).toBe("string");
    expect(events[events.length - 1]).toMatchObject({ type: "run_end", reason: "end_turn" });
    const types = events.map((e) => e.type);
    expect(types).toContain("text_delta");
    expect(types).toContain("message_end");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({
      id: "c1",
      name: "echo",
      arguments: { say: "hi" },
    });
    expect(events.find((e) => e.type === "tool_output")).toMatchObject({
      id: "c1",
      name: "echo",
      text: "logging hi\n",
    });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      id: "c1",
      name: "echo",
      text: "said hi",
      isError: false,
    });
    const ends = events.filter((e) => e.type === "message_end");
    expect(ends.map((e) => e.text)).toEqual(["calling", "all done"]);
    expect(ends[0]!.thinking).toBe("hmm");
    expect(r.stderr).not.toContain("logging hi");
  });

  test("a setup failure still gives run_start, error and run_end", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "ghost-agent", "-p", "x", "--json"]);
    expect(r.code).toBe(1);
    const events = jsonEvents(r.stdout);
    expect(events[0]!.type).toBe("run_start");
    expect(events[1]).toMatchObject({ type: "error" });
    expect(String(events[1]!.message)).toContain("ghost-agent");
    expect(events[events.length - 1]).toMatchObject({ type: "run_end", reason: "error" });
  });

  test("retries appear as retry events", async () => {
    s = await scenario();
    s.server.script({ error: { status: 500, message: "oops" } }, { text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    const retry = jsonEvents(r.stdout).find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", attempt: 1 });
    expect(String(retry!.message)).toContain("oops");
  });
});
