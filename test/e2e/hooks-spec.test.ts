/**
 * hooks.md (the specification page) read statement by statement against
 * the compiled binary: where hooks live, declaring them, the module, each
 * point's payload, return value and effect, chaining, failures and the
 * runtime, and the page's example verbatim. Black box only: files, argv,
 * the scripted provider's requests, stdout/stderr, --json, session files.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { jsonEvents, scenario, systemOf, toolResultsOf, type JsonEvent, type Scenario } from "../support/scenario.ts";
import { sessionFile, sessionIdFrom } from "../support/session-reader.ts";
import { GUARD } from "../support/spec-examples.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const POINTS = [
  "beforeRun",
  "afterRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
] as const;

/** A hook named `name` that appends `{ hook, point, payload, result }` to hooks.log in the workspace at every point. */
function recorder(name: string): string {
  return `module.exports = Object.fromEntries(${JSON.stringify(POINTS)}.map((point) => [point, function (ctx, payload, result) {
    ctx.file.write("hooks.log", JSON.stringify({ hook: ${JSON.stringify(name)}, point, payload, result }) + "\\n", { append: true });
  }]));
`;
}

type Logged = { hook: string; point: string; payload: Record<string, unknown>; result?: Record<string, unknown> };

function logOf(sc: Scenario): Logged[] {
  const path = join(sc.inst.workspace, "hooks.log");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Logged);
}

/** The agent `coder` with these tools and hooks (flow lists). */
async function agentWith(
  tools: string[],
  hooks: string[] | undefined,
  extra: Parameters<typeof scenario>[0] = {},
): Promise<Scenario> {
  const lines = [
    tools.length > 0 ? `tools: [${tools.join(", ")}]` : "",
    hooks ? `hooks: [${hooks.join(", ")}]` : "",
  ].filter(Boolean);
  return scenario({
    ...extra,
    agentFrontmatter: [...lines, ...(extra.agentFrontmatter ? [extra.agentFrontmatter] : [])].join("\n"),
  });
}

function events(stdout: string, type: string): JsonEvent[] {
  return jsonEvents(stdout).filter((e) => e.type === type);
}

describe("hooks.md: where hooks live", () => {
  test("~/.rienda/hooks/<name>/index.js, the directory name being the hook's name; never the workspace's", async () => {
    s = await agentWith([], ["watch"]);
    s.inst.file(".rienda/hooks/watch/index.js", recorder("workspace"));
    s.inst.file("hooks/watch/index.js", recorder("workspace"));
    const missing = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('unknown hook "watch"');
    expect(s.server.requests).toHaveLength(0);
    s.inst.hook("watch", recorder("home"));
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(new Set(logOf(s).map((l) => l.hook))).toEqual(new Set(["home"]));
  });

  test("name rules as for tools: 64 letters, digits, _ and - are a name; 65 characters or a dot are not", async () => {
    const name64 = `H_k-${"h".repeat(60)}`;
    s = await agentWith([], [name64]);
    s.inst.hook(name64, recorder(name64));
    s.server.script({ text: "ok" });
    const ok = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(ok.code).toBe(0);
    expect(logOf(s).map((l) => l.point)).toContain("afterRun");
    for (const bad of [`${name64}x`, "my.hook"]) {
      s.inst.hook(bad, recorder(bad));
      s.inst.agent("coder", `---\ndescription: d\nmodel: p/m\nhooks: [${bad}]\n---\nb\n`);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(bad);
    }
    expect(s.server.requests).toHaveLength(1);
  });
});

describe("hooks.md: declaring", () => {
  test("the page's frontmatter (model openai/gpt-4o, tools: [shell], hooks: [guard, audit]) runs the hooks in the order listed", async () => {
    s = await scenario();
    s.inst.config(
      [
        "providers:",
        "  openai:",
        "    preset: openai",
        `    base_url: ${s.server.url}/v1`,
        "    api_key: test-key",
        "    models: { gpt-4o: {} }",
        "",
      ].join("\n"),
    );
    s.inst.agent(
      "careful",
      "---\ndescription: A careful agent.\nmodel: openai/gpt-4o\ntools: [shell]\nhooks: [guard, audit]\n---\n",
    );
    s.inst.hook(
      "guard",
      GUARD.replace(
        "module.exports = {",
        `module.exports = {\n  beforeModelRequest(ctx) { ctx.file.write("order", "guard\\n", { append: true }); },`,
      ),
    );
    s.inst.hook(
      "audit",
      `module.exports = { beforeModelRequest(ctx) { ctx.file.write("order", "audit\\n", { append: true }); } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo fine" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "careful", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.inst.workspace, "order"), "utf8")).toBe("guard\naudit\nguard\naudit\n");
    // The order is the agent's, not the alphabet's.
    s.inst.agent(
      "careful",
      "---\ndescription: A careful agent.\nmodel: openai/gpt-4o\ntools: [shell]\nhooks: [audit, guard]\n---\n",
    );
    writeFileSync(join(s.inst.workspace, "order"), "");
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "careful", "-p", "x"]);
    expect(readFileSync(join(s.inst.workspace, "order"), "utf8")).toBe("audit\nguard\n");
  });

  test("no hooks key: installed hooks do not run", async () => {
    s = await agentWith(["shell"], undefined);
    s.inst.hook("watch", recorder("watch"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(logOf(s)).toEqual([]);
  });

  test("a declared hook that does not exist fails the run before the first request, named as an unknown tool is", async () => {
    s = await agentWith([], ["ghost"]);
    s.inst.hook("guard", GUARD);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rienda: unknown hook "ghost" (available: guard)');
    expect(r.stdout).toBe("");
    expect(s.server.requests).toHaveLength(0);
  });

  test("a declared hook that fails to load (syntax error, a throw at load, not an object) fails the run before the first request, naming it", async () => {
    s = await agentWith([], ["broken"]);
    for (const source of [
      "module.exports = { beforeRun( {} };",
      'throw new Error("no way");',
      "module.exports = 42;",
      "module.exports = function () {};",
    ]) {
      s.inst.hook("broken", source);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('hook "broken"');
    }
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("hooks.md: the module", () => {
  test("any subset of the six points: one point alone, or all six", async () => {
    s = await agentWith(["shell"], ["only-after", "all"]);
    s.inst.hook(
      "only-after",
      `module.exports = { afterToolExecute(ctx, call, result) { return { text: "seen: " + result.text }; } };`,
    );
    s.inst.hook("all", recorder("all"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo one" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["seen: one"]);
    expect(new Set(logOf(s).map((l) => l.point))).toEqual(new Set(POINTS));
  });

  test("an export that is not an object of functions for known points is reported as a diagnostic, an unknown point name too", async () => {
    s = await scenario();
    const bad: Record<string, string> = {
      "a-function": "module.exports = function () {};",
      "a-string": 'module.exports = "beforeRun";',
      "not-a-function": "module.exports = { beforeRun: 42 };",
      "unknown-point": "module.exports = { beforeRun() {}, beforeToolExec() {} };",
    };
    for (const [name, source] of Object.entries(bad)) s.inst.hook(name, source);
    const doctor = await s.inst.run(["doctor"]);
    expect(doctor.code).toBe(1);
    for (const name of Object.keys(bad)) expect(doctor.stdout).toContain(`hook "${name}"`);
    expect(doctor.stdout).toContain("beforeToolExec");
  });
});

describe("hooks.md: the points", () => {
  test("each point gets its payload: beforeRun, beforeModelRequest (messages as [{ role, text }]), afterModelResponse, the tool points, afterRun", async () => {
    s = await agentWith(["shell"], ["rec"], { protocol: "anthropic" });
    s.inst.hook("rec", recorder("rec"));
    s.server.script(
      {
        text: "Let me look.",
        thinking: "I should run echo.",
        toolCalls: [{ id: "toolu_1", name: "shell", arguments: { command: "echo hi" } }],
      },
      { text: "It said hi." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "say hi", "-m", "p/m"]);
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
    const id = sessionIdFrom(r.stderr);
    expect(log[0]!.payload).toEqual({ sessionId: id, agentId: "coder", modelId: "p/m" });
    expect(log[1]!.payload).toEqual({
      system: "You are a test agent.",
      model: "p/m",
      messages: [{ role: "user", text: "say hi" }],
    });
    expect(log[2]!.payload).toEqual({
      text: "Let me look.",
      thinking: "I should run echo.",
      toolCalls: [{ id: "toolu_1", name: "shell", arguments: { command: "echo hi" } }],
    });
    expect(log[3]!.payload).toEqual({ id: "toolu_1", name: "shell", arguments: { command: "echo hi" } });
    expect(log[4]!.payload).toEqual({ id: "toolu_1", name: "shell", arguments: { command: "echo hi" } });
    expect(log[4]!.result).toEqual({ text: "hi", isError: false });
    const second = log[5]!.payload as { system: string; model: string; messages: { role: string; text: string }[] };
    expect(second.system).toBe("You are a test agent.");
    expect(second.messages.map((m) => Object.keys(m).sort())).toEqual(second.messages.map(() => ["role", "text"]));
    expect(second.messages[0]).toEqual({ role: "user", text: "say hi" });
    expect(second.messages[1]).toMatchObject({ role: "assistant" });
    expect(second.messages[1]!.text).toContain("Let me look.");
    expect(second.messages.at(-1)!.text).toContain("hi");
    expect(log[6]!.payload).toEqual({ text: "It said hi.", thinking: "", toolCalls: [] });
    expect(log[7]!.payload).toEqual({ reason: "end_turn" });
  });

  test("several calls in one answer: before, the tool, after, for each call in turn, in the model's order", async () => {
    s = await agentWith(["shell"], ["rec"]);
    s.inst.hook("rec", recorder("rec"));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "echo one >> order.txt; echo one" } },
          { id: "c2", name: "shell", arguments: { command: "echo two >> order.txt; echo two" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const tools = logOf(s).filter((l) => l.point.endsWith("ToolExecute"));
    expect(
      tools.map((l) => `${l.point}:${(l.payload as { id: string }).id}${l.result ? `=${l.result.text}` : ""}`),
    ).toEqual(["beforeToolExecute:c1", "afterToolExecute:c1=one", "beforeToolExecute:c2", "afterToolExecute:c2=two"]);
    expect(readFileSync(join(s.inst.workspace, "order.txt"), "utf8")).toBe("one\ntwo\n");
  });

  test("returning undefined or null from every point changes nothing", async () => {
    const noOpinion = (value: string) =>
      `module.exports = Object.fromEntries(${JSON.stringify(POINTS)}.map((p) => [p, function () { return ${value}; }]));`;
    const outcomes: string[] = [];
    for (const hooks of [undefined, ["undef"], ["nul"]]) {
      s = await agentWith(["shell"], hooks);
      s.inst.hook("undef", noOpinion("undefined"));
      s.inst.hook("nul", noOpinion("null"));
      s.server.script(
        { text: "checking", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo out; exit 2" } }] },
        { text: "done" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect(r.code).toBe(0);
      expect(events(r.stdout, "hook")).toEqual([]);
      expect(events(r.stdout, "notice")).toEqual([]);
      outcomes.push(
        JSON.stringify({
          stdout: jsonEvents(r.stdout)
            .filter((e) => ["message_end", "tool_call", "tool_result"].includes(e.type))
            .map((e) => ({ ...e, usage: undefined, cost: undefined })),
          system: s.server.requests.map(systemOf),
          results: toolResultsOf(s.server.requests[1]!),
        }),
      );
      await s.dispose();
      s = undefined;
    }
    expect(outcomes[1]).toBe(outcomes[0]!);
    expect(outcomes[2]).toBe(outcomes[0]!);
  });

  test("beforeRun and afterRun: once per run, whatever they return", async () => {
    s = await agentWith(["shell"], ["rec", "loud"]);
    s.inst.hook("rec", recorder("rec"));
    s.inst.hook(
      "loud",
      `module.exports = { beforeRun() { return { system: "HIJACKED", allow: false, text: "x" }; }, afterRun() { return { reason: "error" }; } };`,
    );
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo a" } }] },
      { toolCalls: [{ id: "c2", name: "shell", arguments: { command: "echo b" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(s.server.requests.map(systemOf)).toEqual([
      "You are a test agent.",
      "You are a test agent.",
      "You are a test agent.",
    ]);
    const points = logOf(s).map((l) => l.point);
    expect(points.filter((p) => p === "beforeRun")).toHaveLength(1);
    expect(points.filter((p) => p === "afterRun")).toHaveLength(1);
    expect(points[0]).toBe("beforeRun");
    expect(points.at(-1)).toBe("afterRun");
    expect(points.filter((p) => p === "beforeModelRequest")).toHaveLength(3);
    expect(points.filter((p) => p === "afterModelResponse")).toHaveLength(3);
  });

  test('afterRun reason: "error" when the run fails (the loop guard), "interrupted" when a tool is interrupted', async () => {
    s = await agentWith(["shell", "wait"], ["rec"]);
    s.inst.hook("rec", recorder("rec"));
    s.inst.tool(
      "wait",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { ctx.log("waiting"); ctx.sleep(600000); return "never"; } };`,
    );
    const call = { id: "same", name: "shell", arguments: { command: "echo again" } };
    s.server.script({ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] });
    const failed = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(failed.code).toBe(1);
    expect(
      logOf(s)
        .filter((l) => l.point === "afterRun")
        .map((l) => l.payload),
    ).toEqual([{ reason: "error" }]);

    writeFileSync(join(s.inst.workspace, "hooks.log"), "");
    s.server.script({ toolCalls: [{ id: "w", name: "wait", arguments: {} }] });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    await waitFor(() => run.stderr().includes("waiting"), 20_000, "the tool to run");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(
      logOf(s)
        .filter((l) => l.point === "afterRun")
        .map((l) => l.payload),
    ).toEqual([{ reason: "interrupted" }]);
  });
});

describe("hooks.md: effects", () => {
  test("beforeModelRequest → system replaces the system prompt for this turn only: not stored, not carried; the date hook adds it again each turn", async () => {
    s = await agentWith(["shell"], ["date"]);
    s.inst.hook(
      "date",
      `module.exports = { beforeModelRequest(ctx, request) {
        ctx.file.write("seen", request.system + "\\n---\\n", { append: true });
        return { system: request.system + "\\n\\nToday's date is 2026-12-01." };
      } };`,
    );
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] },
      { toolCalls: [{ id: "c2", name: "shell", arguments: { command: "true" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(s.server.requests.map(systemOf)).toEqual(
      Array(3).fill("You are a test agent.\n\nToday's date is 2026-12-01."),
    );
    expect(readFileSync(join(s.inst.workspace, "seen"), "utf8")).toBe("You are a test agent.\n---\n".repeat(3));
    const id = sessionIdFrom(r.stderr);
    expect(readFileSync(sessionFile(s.inst.home, id), "utf8")).not.toContain("Today's date");
    // A later run of the same session starts from the stored (unchanged) prompt.
    s.server.script({ text: "again" });
    await s.inst.run(["run", "-s", id, "-p", "more"]);
    expect(readFileSync(join(s.inst.workspace, "seen"), "utf8")).toBe("You are a test agent.\n---\n".repeat(4));
  });

  test("beforeModelRequest: messages is a read-only snapshot; changing it changes nothing that is sent", async () => {
    s = await agentWith([], ["meddle"]);
    s.inst.hook(
      "meddle",
      `module.exports = { beforeModelRequest(ctx, request) {
        try { request.messages[0].text = "CHANGED"; } catch (e) {}
        try { request.messages.push({ role: "user", text: "INJECTED" }); } catch (e) {}
        try { request.model = "p/other"; } catch (e) {}
      } };`,
    );
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "the real prompt"]);
    expect(r.code).toBe(0);
    const body = JSON.stringify(s.server.requests[0]!.body);
    expect(body).toContain("the real prompt");
    expect(body).not.toContain("CHANGED");
    expect(body).not.toContain("INJECTED");
    expect((s.server.requests[0]!.body as { model: string }).model).toBe("wire-model");
  });

  test("afterModelResponse → text and thinking replace the answer before the conversation, the session file and the output", async () => {
    s = await agentWith(["shell"], ["redact"], { protocol: "anthropic" });
    s.inst.hook(
      "redact",
      `module.exports = { afterModelResponse(ctx, response) {
        return { text: response.text.replace(/sk-[a-z0-9]+/g, "[redacted]"), thinking: response.thinking.replace(/sk-[a-z0-9]+/g, "[hidden]") };
      } };`,
    );
    s.server.script(
      {
        text: "Key sk-abc123 found.",
        thinking: "The key sk-abc123 is secret.",
        toolCalls: [{ id: "toolu_1", name: "shell", arguments: { command: "true" } }],
      },
      { text: "Done with sk-zzz999." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("sk-");
    const ends = events(r.stdout, "message_end");
    expect(ends.map((e) => [e.text, e.thinking])).toEqual([
      ["Key [redacted] found.", "The key [hidden] is secret."],
      ["Done with [redacted].", ""],
    ]);
    const second = JSON.stringify(s.server.requests[1]!.body);
    expect(second).not.toContain("sk-abc123");
    expect(second).toContain("Key [redacted] found.");
    // A rewritten thinking loses the provider's signature, so Anthropic does not get it back; the original never goes.
    expect(second).not.toContain("The key sk-");
    const start = events(r.stdout, "run_start")[0]!;
    const file = readFileSync(sessionFile(s.inst.home, String(start.sessionId)), "utf8");
    expect(file).not.toContain("sk-");
    expect(file).toContain("[hidden]");
    s.server.script({ text: "plain sk-qqq111" });
    const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(plain.stdout).toBe("plain [redacted]\n");
    expect(plain.stderr).not.toContain("sk-");
  });

  test("afterModelResponse: toolCalls is read-only; the calls the model made are the ones that run", async () => {
    s = await agentWith(["shell"], ["meddle"]);
    s.inst.hook(
      "meddle",
      `module.exports = { afterModelResponse(ctx, response) {
        try { response.toolCalls[0].arguments.command = "echo MEDDLED"; } catch (e) {}
        try { response.toolCalls.push({ id: "x", name: "shell", arguments: { command: "echo EXTRA" } }); } catch (e) {}
      } };`,
    );
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo original" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["original"]);
  });

  test("beforeToolExecute → allow: false refuses: no tool runs, the model reads an error carrying reason, no later hook is consulted", async () => {
    s = await agentWith(["shell"], ["deny", "later"]);
    s.inst.hook(
      "deny",
      `module.exports = { beforeToolExecute(ctx, call) { if (call.arguments.command.includes("touch")) return { allow: false, reason: "no touching" }; } };`,
    );
    s.inst.hook("later", recorder("later"));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "touch made" } },
          { id: "c2", name: "shell", arguments: { command: "echo allowed" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(s.inst.workspace, "made"))).toBe(false);
    expect(events(r.stdout, "tool_result").map((e) => [e.id, e.text, e.isError])).toEqual([
      ["c1", "no touching", true],
      ["c2", "allowed", false],
    ]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["no touching", "allowed"]);
    const later = logOf(s).filter((l) => l.point === "beforeToolExecute" || l.point === "afterToolExecute");
    expect(later.map((l) => [l.point, (l.payload as { id: string }).id])).toEqual([
      ["beforeToolExecute", "c2"],
      ["afterToolExecute", "c2"],
    ]);
  });

  test("beforeToolExecute → arguments replaces what the next hook and the tool see; allow: true lets the call run", async () => {
    s = await agentWith(["shell"], ["rewrite", "rec", "allow"]);
    s.inst.hook(
      "rewrite",
      `module.exports = { beforeToolExecute(ctx, call) { return { arguments: { command: call.arguments.command.replace("wild", "tamed") } }; } };`,
    );
    s.inst.hook("rec", recorder("rec"));
    s.inst.hook("allow", `module.exports = { beforeToolExecute() { return { allow: true }; } };`);
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo wild" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(logOf(s).find((l) => l.point === "beforeToolExecute")!.payload).toEqual({
      id: "c1",
      name: "shell",
      arguments: { command: "echo tamed" },
    });
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["tamed"]);
  });

  test("afterToolExecute → text and isError replace what the model reads", async () => {
    s = await agentWith(["shell"], ["soften"], { protocol: "anthropic" });
    s.inst.hook(
      "soften",
      `module.exports = { afterToolExecute(ctx, call, result) { return { text: "exit ignored: " + result.text.split("\\n")[0], isError: false }; } };`,
    );
    s.server.script(
      { toolCalls: [{ id: "toolu_1", name: "shell", arguments: { command: "echo partial; exit 3" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([["exit ignored: partial", false]]);
    const messages = (s.server.requests[1]!.body as { messages: { content: unknown }[] }).messages;
    const block = messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((b) => (b as { type: string }).type === "tool_result") as Record<string, unknown>;
    expect(block.is_error === true).toBe(false);
    expect(JSON.stringify(block.content)).toContain("exit ignored: partial");
  });
});

describe("hooks.md: chaining", () => {
  test("one hook's output is the next hook's input; the last writer wins; a field left out, undefined or null keeps its value", async () => {
    s = await agentWith(["shell"], ["one", "two", "three"]);
    s.inst.hook(
      "one",
      `module.exports = {
        beforeModelRequest(ctx, r) { return { system: r.system + " +one" }; },
        afterModelResponse(ctx, r) { return { text: r.text + " +one", thinking: "thought by one" }; },
        beforeToolExecute(ctx, c) { return { arguments: { command: c.arguments.command + " one" } }; },
        afterToolExecute(ctx, c, r) { return { text: r.text + " +one", isError: true }; },
      };`,
    );
    s.inst.hook(
      "two",
      `module.exports = {
        beforeModelRequest(ctx, r) { ctx.file.write("two-saw", r.system); return { system: r.system + " +two" }; },
        afterModelResponse(ctx, r) { ctx.file.write("two-saw-thinking", r.thinking); return { text: undefined, thinking: null }; },
        beforeToolExecute(ctx, c) { return { arguments: { command: c.arguments.command + " two" }, allow: null, reason: undefined }; },
        afterToolExecute(ctx, c, r) { return { text: r.text + " +two" }; },
      };`,
    );
    s.inst.hook(
      "three",
      `module.exports = { afterModelResponse(ctx, r) { return { text: r.text + " +three" }; }, afterToolExecute() { return {}; } };`,
    );
    s.server.script(
      { text: "model", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo zero" } }] },
      { text: "end" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).toBe("You are a test agent. +one +two");
    expect(readFileSync(join(s.inst.workspace, "two-saw"), "utf8")).toBe("You are a test agent. +one");
    expect(readFileSync(join(s.inst.workspace, "two-saw-thinking"), "utf8")).toBe("thought by one");
    expect(events(r.stdout, "message_end").map((e) => [e.text, e.thinking])).toEqual([
      ["model +one +three", "thought by one"],
      ["end +one +three", "thought by one"],
    ]);
    expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([["zero one two +one +two", true]]);
  });

  test("beforeToolExecute's reason is a field like the others: set by one hook, kept by the next, carried by a refusal that gives none", async () => {
    s = await agentWith(["shell"], ["annotate", "refuse"]);
    s.inst.hook("annotate", `module.exports = { beforeToolExecute() { return { reason: "this deletes files" }; } };`);
    s.inst.hook("refuse", `module.exports = { beforeToolExecute() { return { allow: false }; } };`);
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch made" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["this deletes files"]);
    expect(existsSync(join(s.inst.workspace, "made"))).toBe(false);
  });

  test("a refusal after an argument rewrite carries the refusing hook's reason; an allow: true earlier does not outvote a later allow: false", async () => {
    s = await agentWith(["shell"], ["yes", "no"]);
    s.inst.hook(
      "yes",
      `module.exports = { beforeToolExecute() { return { allow: true, arguments: { command: "touch made" } }; } };`,
    );
    s.inst.hook(
      "no",
      `module.exports = { beforeToolExecute(ctx, call) { return { allow: false, reason: "refused: " + call.arguments.command }; } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["refused: touch made"]);
    expect(existsSync(join(s.inst.workspace, "made"))).toBe(false);
  });
});

describe("hooks.md: a hook that throws or returns a malformed value", () => {
  const throwAt = (point: string) => `module.exports = { ${point}() { throw new Error("kaput in ${point}"); } };`;

  for (const point of POINTS) {
    test(`a throw in ${point} is reported and treated as no opinion; the run goes on`, async () => {
      s = await agentWith(["shell"], ["boom", "after"]);
      s.inst.hook("boom", throwAt(point));
      s.inst.hook("after", recorder("after"));
      s.server.script(
        { text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] },
        { text: "second" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("first\nsecond\n");
      expect(r.stderr).toContain('hook "boom"');
      expect(r.stderr).toContain(`kaput in ${point}`);
      // Treated as if it returned nothing: the tool ran and the next hook saw the unchanged value.
      expect(toolResultsOf(s.server.requests[1]!)).toEqual(["ran"]);
      expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent.", "You are a test agent."]);
      expect(logOf(s).find((l) => l.point === point)).toBeDefined();
    });
  }

  test("an answer with fields that cannot be copied beside the ones read still counts; a function or a symbol as the answer is reported", async () => {
    s = await agentWith(["shell"], ["extra", "odd"]);
    s.inst.hook(
      "extra",
      `module.exports = {
        beforeModelRequest(ctx, r) { const a = { system: r.system + " +extra", helper() {}, big: 1n }; a.self = a; return a; },
        afterToolExecute(ctx, c, r) { return { text: r.text + " +extra", tag: Symbol("t") }; },
      };`,
    );
    s.inst.hook(
      "odd",
      `module.exports = { afterModelResponse() { return Symbol("no"); }, beforeToolExecute() { return function () {}; } };`,
    );
    s.server.script(
      { text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] },
      { text: "second" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent. +extra", "You are a test agent. +extra"]);
    expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([["ran +extra", false]]);
    expect(events(r.stdout, "message_end").map((e) => e.text)).toEqual(["first", "second"]);
    expect(
      events(r.stdout, "hook")
        .filter((e) => e.name === "odd")
        .map((e) => [e.point, e.outcome]),
    ).toEqual([
      ["afterModelResponse", "error"],
      ["beforeToolExecute", "error"],
      ["afterModelResponse", "error"],
    ]);
  });

  test("throwing a non-Error (a string, null) is reported too, and never fails the run", async () => {
    s = await agentWith([], ["odd"]);
    s.inst.hook(
      "odd",
      `module.exports = { beforeModelRequest() { throw "a plain string"; }, afterModelResponse() { throw null; } };`,
    );
    s.server.script({ text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(events(r.stdout, "message_end")[0]!.text).toBe("fine");
    expect(
      events(r.stdout, "hook")
        .filter((e) => e.outcome === "error")
        .map((e) => e.point),
    ).toEqual(["beforeModelRequest", "afterModelResponse"]);
    expect(JSON.stringify(events(r.stdout, "hook"))).toContain("a plain string");
  });

  const malformed: { point: string; value: string }[] = [
    { point: "beforeModelRequest", value: '"just a string"' },
    { point: "beforeModelRequest", value: "{ system: 42 }" },
    { point: "beforeModelRequest", value: "[1, 2]" },
    { point: "afterModelResponse", value: "{ text: 42 }" },
    { point: "afterModelResponse", value: "{ thinking: { a: 1 } }" },
    { point: "afterModelResponse", value: "true" },
    { point: "beforeToolExecute", value: '{ allow: "no" }' },
    { point: "beforeToolExecute", value: "7" },
    { point: "afterToolExecute", value: "{ text: 5 }" },
    { point: "afterToolExecute", value: '{ isError: "yes" }' },
    { point: "afterToolExecute", value: 'Promise.resolve({ text: "later" })' },
  ];
  test("a malformed value at any point is reported and treated as no opinion", async () => {
    for (const { point, value } of malformed) {
      s = await agentWith(["shell"], ["odd"]);
      s.inst.hook("odd", `module.exports = { ${point}() { return ${value}; } };`);
      s.server.script(
        { text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] },
        { text: "second" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect({ point, value, code: r.code }).toEqual({ point, value, code: 0 });
      const reported = events(r.stdout, "hook").map((e) => [e.point, e.outcome]);
      expect({
        point,
        value,
        reported: reported.length > 0 && reported.every(([p, o]) => p === point && o === "error"),
      }).toEqual({ point, value, reported: true });
      expect(events(r.stdout, "message_end").map((e) => e.text)).toEqual(["first", "second"]);
      expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([["ran", false]]);
      expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent.", "You are a test agent."]);
      // Reported where a person running it sees it.
      const plainScenario = s;
      plainScenario.server.script(
        { text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] },
        { text: "second" },
      );
      const plain = await plainScenario.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(plain.code).toBe(0);
      expect(plain.stderr).toContain('hook "odd"');
      await s.dispose();
      s = undefined;
    }
  });
});

describe("hooks.md: an async handler (it returns a Promise, a malformed value)", () => {
  test("is reported and ignored at every call; the run neither fails nor stops, and a later hook still sees the value", async () => {
    s = await agentWith(["shell"], ["eager", "after"]);
    s.inst.hook(
      "eager",
      `module.exports = {
        async beforeModelRequest(ctx, r) { return { system: "HIJACKED" }; },
        async beforeToolExecute(ctx, call) { return { allow: false, reason: "never applied" }; },
      };`,
    );
    s.inst.hook(
      "after",
      `module.exports = { beforeModelRequest(ctx, r) { return { system: r.system + " +after" }; } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent. +after", "You are a test agent. +after"]);
    expect(events(r.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([["ran", false]]);
    expect(events(r.stdout, "hook").map((e) => [e.name, e.point, e.outcome])).toEqual([
      ["eager", "beforeModelRequest", "error"],
      ["after", "beforeModelRequest", "changed"],
      ["eager", "beforeToolExecute", "error"],
      ["eager", "beforeModelRequest", "error"],
      ["after", "beforeModelRequest", "changed"],
    ]);
    expect(events(r.stdout, "notice").map((e) => e.message)).toContainEqual(
      expect.stringContaining('hook "eager": "beforeModelRequest" is an async function'),
    );
  });
});

describe("hooks.md: runtime", () => {
  test("every invocation runs in a fresh runtime: module state and globals start over", async () => {
    s = await agentWith(["shell"], ["count"]);
    s.inst.hook(
      "count",
      `let n = 0;
module.exports = Object.fromEntries(${JSON.stringify(POINTS)}.map((p) => [p, function (ctx) {
  n++; globalThis.g = (globalThis.g || 0) + 1;
  ctx.file.write("counts", p + " " + n + " " + globalThis.g + "\\n", { append: true });
}]));`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "true" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const lines = readFileSync(join(s.inst.workspace, "counts"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(line.endsWith(" 1 1")).toBe(true);
  });

  test("a slow hook is waited for (no built-in timeout): its answer counts when it finally comes", async () => {
    s = await agentWith(["shell"], ["slow"]);
    s.inst.hook(
      "slow",
      `module.exports = {
        beforeModelRequest(ctx, r) { ctx.sleep(1500); return { system: r.system + " (slowly)" }; },
        afterToolExecute(ctx, c, r) { ctx.system.exec("sleep 1.5"); return { text: "slow " + r.text }; },
      };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(s.server.requests.map(systemOf)).toEqual([
      "You are a test agent. (slowly)",
      "You are a test agent. (slowly)",
    ]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["slow hi"]);
  });

  test("ctx.log reaches the front end live while the hook runs", async () => {
    s = await agentWith([], ["talk"]);
    s.inst.hook(
      "talk",
      `module.exports = { beforeModelRequest(ctx) { ctx.log("hook is thinking"); while (!ctx.file.exists("go")) ctx.sleep(20); ctx.log("hook is done"); } };`,
    );
    s.server.script({ text: "ok" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    await waitFor(() => run.stderr().includes("hook is thinking"), 20_000, "the hook's log while it runs");
    expect(s.server.requests).toHaveLength(0);
    writeFileSync(join(s.inst.workspace, "go"), "");
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("hook is done");
  });

  test("the same ctx as tools: workdir, session (its id is beforeRun's sessionId), agent, config, and every namespace", async () => {
    s = await agentWith([], ["probe"], {
      configExtra: "config:\n  probe: { level: 2 }",
      agentFrontmatter: "config:\n  probe: { mine: true }",
    });
    s.inst.hook(
      "probe",
      `module.exports = { beforeRun(ctx, run) {
        ctx.file.write("ctx.json", JSON.stringify({
          workdir: ctx.workdir, session: ctx.session, run: run, agent: ctx.agent, config: ctx.config.config,
          members: ["log", "sleep", "confirm", "notify"].map((k) => typeof ctx[k]),
          file: Object.keys(ctx.file).sort(), env: Object.keys(ctx.env), http: Object.keys(ctx.http), system: Object.keys(ctx.system).sort(),
          home: ctx.env.get("HOME"), which: ctx.system.which("sh") !== null,
        }));
      } };`,
    );
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const seen = JSON.parse(readFileSync(join(s.inst.workspace, "ctx.json"), "utf8"));
    expect(seen.workdir).toBe(s.inst.workspace);
    expect(seen.session).toEqual({
      id: seen.run.sessionId,
      agentId: "coder",
      modelId: "p/m",
      workdir: s.inst.workspace,
    });
    expect(seen.session.id).toBe(sessionIdFrom(r.stderr));
    expect(seen.agent).toMatchObject({
      name: "coder",
      hooks: ["probe"],
      config: { probe: { mine: true } },
      systemPrompt: "You are a test agent.",
    });
    expect(seen.config).toEqual({ probe: { level: 2 } });
    expect(seen.members).toEqual(["function", "function", "function", "function"]);
    expect(seen.file).toEqual(["exists", "list", "read", "write"]);
    expect(seen.env).toEqual(["get"]);
    expect(seen.http).toEqual(["fetch"]);
    expect(seen.system).toEqual(["exec", "which"]);
    expect(seen.home).toBe(s.inst.home);
    expect(seen.which).toBe(true);
  });

  test("ctx.confirm in a non-interactive run answers from auto-approve: false without -y, true with it", async () => {
    s = await agentWith([], ["ask"]);
    s.inst.hook(
      "ask",
      `module.exports = { beforeRun(ctx) { ctx.file.write("answer", String(ctx.confirm({ title: "Go on?", body: "Really?" }))); } };`,
    );
    s.server.script({ text: "ok" }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(readFileSync(join(s.inst.workspace, "answer"), "utf8")).toBe("false");
    await s.inst.run(["run", "-a", "coder", "-p", "x", "-y"]);
    expect(readFileSync(join(s.inst.workspace, "answer"), "utf8")).toBe("true");
  });

  test("no built-in timeout, but an interrupt ends a hook busy in an endless loop: the tool does not run, afterRun sees interrupted", async () => {
    s = await agentWith(["shell"], ["spin", "rec"]);
    s.inst.hook("spin", `module.exports = { beforeToolExecute(ctx) { ctx.log("spinning"); while (true) {} } };`);
    s.inst.hook("rec", recorder("rec"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch made" } }] });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    await waitFor(() => run.stderr().includes("spinning"), 20_000, "the hook to spin");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(existsSync(join(s.inst.workspace, "made"))).toBe(false);
    const points = logOf(s).map((l) => l.point);
    expect(points).not.toContain("beforeToolExecute");
    expect(logOf(s).at(-1)).toMatchObject({ point: "afterRun", payload: { reason: "interrupted" } });
  });
});

describe("hooks.md: the example", () => {
  test("guard, verbatim: rm -rf is refused without -y (the model reads the reason), runs with -y; afterRun notifies with the reason", async () => {
    s = await agentWith(["shell"], ["guard"]);
    s.inst.hook("guard", GUARD);
    s.inst.file("victim/file.txt", "keep me");
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf victim" } }] },
      { text: "ok" },
    );
    const refused = await s.inst.run(["run", "-a", "coder", "-p", "clean up", "--json"]);
    expect(refused.code).toBe(0);
    expect(events(refused.stdout, "tool_result").map((e) => [e.text, e.isError])).toEqual([
      ["refused by the user", true],
    ]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["refused by the user"]);
    expect(existsSync(join(s.inst.workspace, "victim/file.txt"))).toBe(true);
    expect(events(refused.stdout, "notice")).toContainEqual(
      expect.objectContaining({ title: "rienda", body: "run finished: end_turn" }),
    );

    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf victim && echo removed" } }] },
      { text: "ok" },
    );
    const allowed = await s.inst.run(["run", "-a", "coder", "-p", "clean up", "-y"]);
    expect(allowed.code).toBe(0);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["removed"]);
    expect(existsSync(join(s.inst.workspace, "victim"))).toBe(false);
    expect(allowed.stderr).toContain("run finished: end_turn");

    s.server.script({ error: { status: 400, message: "bad request" } });
    const failed = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("run finished: error");
  });
});

/** The agent `coder` with the shell tool and these hooks, the model calling `echo ran` once, then answering. */
async function withHooks(hooks: string[]): Promise<Scenario> {
  const sc = await scenario({ agentFrontmatter: `tools: [shell]\nhooks: [${hooks.join(", ")}]` });
  sc.server.script(
    { text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] },
    { text: "second" },
  );
  return sc;
}

describe("hooks.md: an answer that is an object but not a set of fields is malformed", () => {
  // `return new Error(...)` where `throw` was meant must not pass silently for "no opinion".
  const answers = [
    { value: 'new Error("returned, not thrown")', shown: "an Error" },
    { value: "new Date(0)", shown: "a Date" },
    { value: 'new Map([["system", "x"]])', shown: "a Map" },
    { value: "/system/", shown: "a RegExp" },
  ];
  test("an Error, a Date, a Map or a RegExp as the answer is reported and treated as no opinion", async () => {
    for (const { value, shown } of answers) {
      s = await withHooks(["odd"]);
      s.inst.hook(
        "odd",
        `module.exports = { beforeModelRequest() { return ${value}; }, afterToolExecute() { return ${value}; } };`,
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect({ value, code: r.code }).toEqual({ value, code: 0 });
      const reported = events(r.stdout, "hook").map((e) => [e.point, e.outcome, e.message]);
      expect({ value, reported }).toEqual({
        value,
        reported: ["beforeModelRequest", "afterToolExecute", "beforeModelRequest"].map((point) => [
          point,
          "error",
          `expected an object, got ${shown}`,
        ]),
      });
      expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent.", "You are a test agent."]);
      expect(toolResultsOf(s.server.requests[1]!)).toEqual(["ran"]);
      await s.dispose();
      s = undefined;
    }
  });

  test("an object made by a class of the hook's own, with the fields, still counts", async () => {
    s = await withHooks(["classy"]);
    s.inst.hook(
      "classy",
      `class Answer { constructor(system) { this.system = system; } } module.exports = { beforeModelRequest(ctx, r) { return new Answer(r.system + " +class"); } };`,
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(events(r.stdout, "hook").map((e) => e.outcome)).toEqual(["changed", "changed"]);
    expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent. +class", "You are a test agent. +class"]);
  });
});

describe("hooks.md: every invocation runs in a fresh runtime", () => {
  // process.chdir changes the directory of the whole process: without care it outlives the call
  // that made it, and every later hook and tool (relative paths included) starts somewhere else.
  test("a process.chdir in one call is gone in the next: each call starts in the directory Rienda started in", async () => {
    s = await withHooks(["wander"]);
    s.inst.file("here.txt", "found");
    s.inst.hook(
      "wander",
      `const fs = require("fs");
module.exports = Object.fromEntries(["beforeRun", "beforeModelRequest", "afterModelResponse", "beforeToolExecute", "afterToolExecute", "afterRun"].map((p) => [p, function (ctx) {
  let read; try { read = fs.readFileSync("here.txt", "utf8"); } catch (e) { read = "missing"; }
  ctx.file.write("dirs", p + " " + process.cwd() + " " + read + "\\n", { append: true });
  process.chdir("/");
}]));`,
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const lines = readFileSync(join(s.inst.workspace, "dirs"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(line.split(" ").slice(1)).toEqual([s.inst.workspace, "found"]);
  });
});
