import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { PROTOCOLS, scenario, systemOf, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** The guard example of hooks.md, verbatim. */
const GUARD = `module.exports = {
  beforeToolExecute(ctx, call) {
    const cmd = (call.arguments && call.arguments.command) || "";
    if (call.name === "shell" && /\\brm\\s+-rf\\b/.test(cmd)) {
      const ok = ctx.confirm({ title: "Dangerous command", body: cmd });
      if (!ok) return { allow: false, reason: "refused by the user" };
    }
  },
  afterRun(ctx, event) {
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
`;

/** A hook that appends what it sees at every point to a file of the workspace. */
const RECORDER = `module.exports = Object.fromEntries(
  ["beforeRun", "afterRun", "beforeModelRequest", "afterModelResponse", "beforeToolExecute", "afterToolExecute"].map((point) => [
    point,
    function (ctx, payload, result) {
      ctx.file.write("hooks.log", JSON.stringify({ point, payload, result }) + "\\n", { append: true });
    },
  ]),
);
`;

function logOf(sc: Scenario): { point: string; payload: Record<string, unknown>; result?: Record<string, unknown> }[] {
  return readFileSync(join(sc.inst.workspace, "hooks.log"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("hooks", () => {
  test("the guard example refuses rm -rf without -y and notifies at the end of the run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook("guard", GUARD);
    s.inst.file("victim/file.txt", "keep me");
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf victim" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "clean up"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["refused by the user"]);
    expect(readFileSync(join(s.inst.workspace, "victim/file.txt"), "utf8")).toBe("keep me");
    expect(r.stderr).toContain("run finished: end_turn");
  });

  test("the guard example lets rm -rf run with -y", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook("guard", GUARD);
    s.inst.file("victim/file.txt", "bye");
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf victim && echo removed" } }] },
      { text: "ok" },
    );
    await s.inst.run(["run", "-a", "coder", "-p", "clean up", "-y"]);
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain("removed");
  });

  for (const protocol of PROTOCOLS) {
    test(`every point receives its payload, in order (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: [shell]\nhooks: [rec]" });
      s.inst.hook("rec", RECORDER);
      s.server.script(
        { text: "looking", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] },
        { text: "bye" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "start"]);
      expect(r.code).toBe(0);
      const log = logOf(s);
      expect(log.map((l) => l.point)).toEqual([
        "beforeRun",
        "beforeModelRequest",
        "afterModelResponse",
        "beforeToolExecute",
        "afterToolExecute",
        "beforeModelRequest",
        "afterModelResponse",
        "afterRun",
      ]);
      expect(log[0]!.payload).toEqual({ sessionId: sessionIdFrom(r.stderr), agentId: "coder", modelId: "p/m" });
      expect(log[1]!.payload).toMatchObject({
        system: "You are a test agent.",
        model: "p/m",
        messages: [{ role: "user", text: "start" }],
      });
      expect(log[2]!.payload).toEqual({
        text: "looking",
        thinking: "",
        toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }],
      });
      expect(log[3]!.payload).toEqual({ id: "c1", name: "shell", arguments: { command: "echo hi" } });
      expect(log[4]!.payload).toEqual({ id: "c1", name: "shell", arguments: { command: "echo hi" } });
      expect(log[4]!.result).toEqual({ text: "hi", isError: false });
      expect(log[7]!.payload).toEqual({ reason: "end_turn" });
    });
  }

  test("beforeModelRequest changes the system prompt of each turn, never stored", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [date]" });
    s.inst.hook(
      "date",
      `module.exports = { beforeModelRequest(ctx, req) { return { system: req.system + "\\nToday is 2026-11-30." }; } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(systemOf(s.server.requests[0]!)).toBe("You are a test agent.\nToday is 2026-11-30.");
    expect(systemOf(s.server.requests[1]!)).toBe("You are a test agent.\nToday is 2026-11-30.");
    const file = readFileSync(sessionFile(s.inst.home, sessionIdFrom(r.stderr)), "utf8");
    expect(file).not.toContain("Today is");
  });

  test("afterModelResponse redaction is what is printed, stored and sent back", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [redact]" });
    s.inst.hook(
      "redact",
      `module.exports = { afterModelResponse(ctx, res) { return { text: res.text.replace(/sk-[a-z0-9]+/g, "[redacted]") }; } };`,
    );
    s.server.script(
      { text: "the key is sk-abc123", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] },
      { text: "again sk-zzz9" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("the key is [redacted]\nagain [redacted]\n");
    expect(JSON.stringify(s.server.requests[1]!.body)).not.toContain("sk-abc123");
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("the key is [redacted]");
    const stored = JSON.stringify(messageEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr))));
    expect(stored).not.toContain("sk-");
  });

  test("an argument rewrite is seen by the next hook and the tool, and can repair a malformed call", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [fix, rec]" });
    s.inst.hook(
      "fix",
      `module.exports = { beforeToolExecute(ctx, call) { if (typeof call.arguments === "string") return { arguments: { command: "echo repaired" } }; } };`,
    );
    s.inst.hook("rec", RECORDER);
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", rawArguments: "{command: echo broken" }] },
      { text: "ok" },
    );
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const seen = logOf(s).find((l) => l.point === "beforeToolExecute")!;
    expect(seen.payload.arguments).toEqual({ command: "echo repaired" });
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain("repaired");
  });

  test("a refusal is final: it carries its reason, stops the chain, and afterToolExecute cannot turn it into a success", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [deny, rec, launder]" });
    s.inst.hook(
      "deny",
      `module.exports = { beforeToolExecute() { return { allow: false, reason: "no shell today" }; } };`,
    );
    s.inst.hook("rec", RECORDER);
    s.inst.hook(
      "launder",
      `module.exports = { afterToolExecute() { return { text: "it ran fine", isError: false }; } };`,
    );
    s.inst.file("marker", "");
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm marker" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["no shell today"]);
    const points = logOf(s).map((l) => l.point);
    expect(points).not.toContain("beforeToolExecute");
    expect(points).not.toContain("afterToolExecute");
    expect(r.stderr).toContain("tool failed: no shell today");
    expect(readFileSync(join(s.inst.workspace, "marker"), "utf8")).toBe("");
  });

  test("arguments encoded twice (JSON text in a JSON string) cannot slip past the guard: the tool never runs them", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook("guard", GUARD);
    s.inst.file("victim/keep.txt", "precious");
    // The guard reads call.arguments.command, finds a string instead, and allows the call.
    const twice = JSON.stringify(JSON.stringify({ command: "rm -rf victim" }));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", rawArguments: twice }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.inst.workspace, "victim", "keep.txt"), "utf8")).toBe("precious");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      'invalid arguments for tool "shell": expected a JSON object, got a string holding JSON (the arguments were encoded twice; send the object itself)',
    ]);
  });

  test("the tool line and the tool_call event show the arguments that ran after a rewrite; --json adds the model's", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [tame]" });
    s.inst.hook(
      "tame",
      `module.exports = { beforeToolExecute(ctx, call) { return { arguments: { command: "echo tamed" } }; } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo wild" } }] }, { text: "ok" });
    const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(plain.stderr).toContain("echo tamed");
    expect(plain.stderr).not.toContain("echo wild");
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo wild" } }] }, { text: "ok" });
    const json = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "tool_call")).toEqual({
      type: "tool_call",
      id: "c1",
      name: "shell",
      arguments: { command: "echo tamed" },
      originalArguments: { command: "echo wild" },
    });
  });

  test("afterToolExecute rewrites what the model reads; the last writer wins and null keeps the value", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [first, second, third]" });
    s.inst.hook(
      "first",
      `module.exports = { afterToolExecute(ctx, call, r) { return { text: "first:" + r.text.trim(), isError: true }; } };`,
    );
    s.inst.hook(
      "second",
      `module.exports = { afterToolExecute(ctx, call, r) { return { text: r.text + "+second", isError: null }; } };`,
    );
    s.inst.hook("third", `module.exports = { afterToolExecute() { return null; } };`);
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo out" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["first:out+second"]);
    expect(r.stderr).toContain("tool failed: first:out+second");
  });

  test("a throwing hook and a malformed answer are notices naming the hook and the point; the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [boom, odd]" });
    s.inst.hook("boom", `module.exports = { beforeModelRequest() { throw new Error("kaput"); } };`);
    s.inst.hook("odd", `module.exports = { beforeModelRequest() { return "not an object"; } };`);
    s.server.script({ text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
    expect(r.stderr).toContain('hook "boom"');
    expect(r.stderr).toContain("beforeModelRequest");
    expect(r.stderr).toContain("kaput");
    expect(r.stderr).toContain('hook "odd"');
    expect(systemOf(s.server.requests[0]!)).toBe("You are a test agent.");
  });

  test("ctx.log from a hook reaches stderr", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [talk]" });
    s.inst.hook("talk", `module.exports = { beforeRun(ctx) { ctx.log("hello from a hook\\n"); } };`);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).toContain("hello from a hook");
  });

  test("afterRun sees error when the provider fails", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [rec]" });
    s.inst.hook("rec", RECORDER);
    s.server.script({ error: { status: 400, message: "bad request" } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(logOf(s).at(-1)).toMatchObject({ point: "afterRun", payload: { reason: "error" } });
  });

  test("afterRun sees interrupted when the run is interrupted", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [rec]" });
    s.inst.hook("rec", RECORDER);
    s.server.script({ text: "never finishes", hang: true });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await s.server.waitForRequests(1);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the run was interrupted");
    expect(logOf(s).at(-1)).toMatchObject({ point: "afterRun", payload: { reason: "interrupted" } });
  });

  test("each invocation runs in a fresh context", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [count]" });
    s.inst.hook(
      "count",
      `let n = 0; module.exports = { beforeModelRequest(ctx) { n++; globalThis.seen = (globalThis.seen || 0) + 1; ctx.file.write("counts", n + "," + globalThis.seen + "\\n", { append: true }); } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(readFileSync(join(s.inst.workspace, "counts"), "utf8")).toBe("1,1\n1,1\n");
  });

  test("a missing hook fails the run before any request, listing the hooks available", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [ghost]" });
    s.inst.hook("audit", `module.exports = { afterRun() {} };`);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown hook "ghost"');
    expect(r.stderr).toContain("audit");
    expect(s.server.requests).toHaveLength(0);
  });

  test("a hook with an unknown point or a syntax error fails the run that names it", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [typo]" });
    s.inst.hook("typo", `module.exports = { beforeToolExec() {} };`);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hook "typo"');
    expect(r.stderr).toContain("beforeToolExec");
    s.inst.hook("typo", `module.exports = { afterRun( {} };`);
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('hook "typo"');
    expect(s.server.requests).toHaveLength(0);
  });

  test("an afterModelResponse hook that empties the answer does not fail the run; the session continues", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [hush]" });
    s.inst.hook("hush", `module.exports = { afterModelResponse() { return { text: "" }; } };`);
    s.server.script({ text: "the secret is 42" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).not.toContain("cannot store");
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("secret");
    const id = sessionIdFrom(r.stderr);
    const stored = messageEntries(sessionFile(s.inst.home, id));
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(stored)).not.toContain("secret");
    s.server.script({ text: "fine" });
    const next = await s.inst.run(["run", "-s", id, "-p", "y"]);
    expect(next.code).toBe(0);
    expect(JSON.stringify(s.server.requests[1]!.body)).not.toContain("secret");
  });

  test("an interrupt while afterModelResponse runs prints and stores nothing of the answer", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [redact]" });
    s.inst.hook(
      "redact",
      `module.exports = { afterModelResponse(ctx, r) { ctx.file.write("started", "1"); ctx.sleep(60000); return { text: r.text.replace("sk-live-999", "[redacted]") }; } };`,
    );
    s.server.script({ text: "the key is sk-live-999" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(
      () => {
        try {
          return readFileSync(join(s!.inst.workspace, "started"), "utf8") === "1";
        } catch {
          return false;
        }
      },
      10_000,
      "the hook to start",
    );
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stdout + r.stderr).not.toContain("sk-live-999");
    const stored = messageEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr)));
    expect(JSON.stringify(stored)).not.toContain("sk-live-999");
    expect(stored.map((m) => m.role)).toEqual(["user"]);
  });

  test("--json reports what hooks did", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [deny]" });
    s.inst.hook("deny", `module.exports = { beforeToolExecute() { return { allow: false, reason: "nope" }; } };`);
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events).toContainEqual({
      type: "hook",
      name: "deny",
      point: "beforeToolExecute",
      outcome: "refused",
      message: "nope",
    });
  });

  test("a hook that blocks in ctx.sleep is cut short by an interrupt", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [slow]" });
    s.inst.hook("slow", `module.exports = { beforeRun(ctx) { ctx.file.write("started", "1"); ctx.sleep(60000); } };`);
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(
      () => {
        try {
          return readFileSync(join(s!.inst.workspace, "started"), "utf8") === "1";
        } catch {
          return false;
        }
      },
      10_000,
      "the hook to start",
    );
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(s.server.requests).toHaveLength(0);
  });
});
