import { describe, expect, test } from "bun:test";
import {
  INTERRUPTED_RESULT_TEXT,
  runAgent,
  type EngineEvent,
  type HookAnswer,
  type HookPoint,
  type HookPort,
  type ModelPort,
  type RunInput,
  type SessionPort,
  type ToolPort,
} from "../../src/engine/index.ts";
import type { Message, ModelRequest, ResolvedModel, StreamEvent, ToolSpec } from "../../src/providers/index.ts";
import type { ToolResult } from "../../src/tools/types.ts";

const model: ResolvedModel = {
  ref: "p/m",
  provider: "p",
  alias: "m",
  wireId: "m",
  protocol: "openai_chat_completions",
  baseUrl: "http://127.0.0.1:1",
  apiKey: "",
  headers: {},
};

type Turn =
  | { text?: string; thinking?: string; calls?: { id: string; name: string; arguments: unknown }[] }
  | { fail: string };

/** A model that plays scripted turns and records every request. */
function scriptedModel(turns: Turn[], onRequest?: (r: ModelRequest) => void): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      requests.push(structuredClone(request));
      onRequest?.(request);
      const turn = turns.shift();
      if (!turn) {
        yield { type: "error", failure: { kind: "other", message: "script ran out", retryable: false } };
        return;
      }
      if ("fail" in turn) {
        yield {
          type: "error",
          failure: { kind: "invalid_request", message: turn.fail, status: 400, retryable: false },
        };
        return;
      }
      const blocks: Message["blocks"] = [];
      if (turn.thinking) blocks.push({ type: "thinking", thinking: turn.thinking });
      if (turn.text) {
        yield { type: "text_delta", text: turn.text };
        blocks.push({ type: "text", text: turn.text });
      }
      for (const c of turn.calls ?? [])
        blocks.push({ type: "tool_call", toolCallId: c.id, toolCallName: c.name, toolCallArguments: c.arguments });
      yield {
        type: "done",
        response: {
          message: { role: "assistant", blocks },
          stopReason: turn.calls?.length ? "tool_use" : "end_turn",
          usage: { inputTokens: 10, outputTokens: 5 },
        },
      };
    },
  };
}

function memorySession(): SessionPort & { stored: Message[]; interruptions: number[]; failures: number[] } {
  const stored: Message[] = [];
  const interruptions: number[] = [];
  const failures: number[] = [];
  return {
    id: "s1",
    stored,
    interruptions,
    failures,
    messages: () => structuredClone(stored),
    appendMessage: (m) => void stored.push(structuredClone(m)),
    // Where the interruption (or the failure) was recorded: after how many messages.
    appendInterruption: (reason) => void (reason === "error" ? failures : interruptions).push(stored.length),
  };
}

function toolSet(
  impl: Record<string, (args: unknown) => ToolResult | Promise<ToolResult>>,
): ToolPort & { calls: { name: string; arguments: unknown }[] } {
  const calls: { name: string; arguments: unknown }[] = [];
  return {
    calls,
    specs: (): ToolSpec[] =>
      Object.keys(impl).map((name) => ({ name, description: name, parameters: { type: "object" } })),
    has: (name) => name in impl,
    async run(call) {
      calls.push({ name: call.name, arguments: call.arguments });
      return impl[call.name]!(call.arguments);
    },
  };
}

type Handler = (...args: unknown[]) => unknown;
/** Returned by a test handler: the call ends as an interrupted invocation does. */
const INTERRUPTED = Symbol("interrupted");
function hookSet(hooks: Record<string, Partial<Record<HookPoint, Handler>>>): HookPort & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    names: Object.keys(hooks),
    handles: (name, point) => typeof hooks[name]?.[point] === "function",
    async call(name, point, args): Promise<HookAnswer> {
      log.push(`${name}.${point}`);
      try {
        const value = hooks[name]![point]!({}, ...structuredClone(args));
        return value === INTERRUPTED ? { kind: "interrupted" } : { kind: "returned", value };
      } catch (e) {
        return { kind: "failed", message: (e as Error).message };
      }
    },
  };
}

function input(over: Partial<RunInput> & Pick<RunInput, "modelPort">): RunInput & { events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  return {
    prompt: "hello",
    system: "You are terse.",
    model,
    agentId: "coder",
    tools: toolSet({}),
    hooks: hookSet({}),
    session: memorySession(),
    emit: (e) => events.push(e),
    signal: new AbortController().signal,
    events,
    ...over,
  };
}

describe("runAgent", () => {
  test("stores the prompt and the answer and ends the turn", async () => {
    const session = memorySession();
    const run = input({ modelPort: scriptedModel([{ text: "Hi there" }]), session });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("end_turn");
    expect(session.stored).toEqual([
      { role: "user", blocks: [{ type: "text", text: "hello" }] },
      { role: "assistant", blocks: [{ type: "text", text: "Hi there" }] },
    ]);
    expect(run.events.find((e) => e.type === "message_end")).toMatchObject({ text: "Hi there" });
    expect(outcome.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
  });

  test("runs tool calls in order and sends their results back", async () => {
    const tools = toolSet({
      a: () => ({ text: "A!", isError: false }),
      b: () => ({ text: "B!", isError: false }),
    });
    const modelPort = scriptedModel([
      {
        calls: [
          { id: "1", name: "b", arguments: { x: 1 } },
          { id: "2", name: "a", arguments: {} },
        ],
      },
      { text: "done" },
    ]);
    const outcome = await runAgent(input({ modelPort, tools }));
    expect(outcome.reason).toBe("end_turn");
    expect(tools.calls.map((c) => c.name)).toEqual(["b", "a"]);
    const second = modelPort.requests[1]!;
    const last = second.messages[second.messages.length - 1]!;
    expect(last.role).toBe("user");
    expect(last.blocks).toEqual([
      { type: "tool_result", toolResultCallId: "1", toolResult: [{ type: "text", text: "B!" }] },
      { type: "tool_result", toolResultCallId: "2", toolResult: [{ type: "text", text: "A!" }] },
    ]);
  });

  test("a call to an undeclared tool gets the unknown tool error result", async () => {
    const modelPort = scriptedModel([{ calls: [{ id: "1", name: "ghost", arguments: {} }] }, { text: "ok" }]);
    const run = input({ modelPort });
    await runAgent(run);
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({
      text: 'unknown tool "ghost"',
      isError: true,
    });
  });

  test("an empty answer is an error", async () => {
    const outcome = await runAgent(input({ modelPort: scriptedModel([{ text: "   " }]) }));
    expect(outcome.reason).toBe("error");
    expect(outcome.message).toContain("empty answer");
  });

  test("a provider failure ends the run with its message and afterRun sees error", async () => {
    const hooks = hookSet({ audit: { afterRun: (_c, e) => void (seen = (e as { reason: string }).reason) } });
    let seen = "";
    const outcome = await runAgent(input({ modelPort: scriptedModel([{ fail: "HTTP 400: bad model" }]), hooks }));
    expect(outcome).toMatchObject({ reason: "error", message: "HTTP 400: bad model" });
    expect(seen).toBe("error");
  });

  test("three identical rounds stop the run", async () => {
    const call = { id: "x", name: "a", arguments: { q: 1 } };
    const modelPort = scriptedModel([{ calls: [call] }, { calls: [call] }, { calls: [call] }, { text: "never" }]);
    const outcome = await runAgent(
      input({ modelPort, tools: toolSet({ a: () => ({ text: "same", isError: false }) }) }),
    );
    expect(outcome.reason).toBe("error");
    expect(outcome.message).toContain("3 times");
    expect(modelPort.requests).toHaveLength(3);
  });

  test("beforeModelRequest changes the system prompt for one turn only", async () => {
    let turn = 0;
    const hooks = hookSet({
      date: { beforeModelRequest: (_c, p) => ({ system: `${(p as { system: string }).system}\nturn ${++turn}` }) },
    });
    const modelPort = scriptedModel([{ calls: [{ id: "1", name: "a", arguments: {} }] }, { text: "ok" }]);
    await runAgent(input({ modelPort, hooks, tools: toolSet({ a: () => ({ text: "r", isError: false }) }) }));
    expect(modelPort.requests.map((r) => r.system)).toEqual(["You are terse.\nturn 1", "You are terse.\nturn 2"]);
  });

  test("afterModelResponse rewrites what is stored and shown", async () => {
    const session = memorySession();
    const hooks = hookSet({
      redact: {
        afterModelResponse: (_c, p) => ({ text: (p as { text: string }).text.replace("sk-123", "[redacted]") }),
      },
    });
    const run = input({ modelPort: scriptedModel([{ text: "key sk-123" }]), hooks, session });
    await runAgent(run);
    expect(session.stored[1]).toEqual({ role: "assistant", blocks: [{ type: "text", text: "key [redacted]" }] });
    const deltas = run.events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text);
    expect(deltas.join("")).toBe("key [redacted]");
    expect(run.events).toContainEqual({
      type: "hook",
      name: "redact",
      point: "afterModelResponse",
      outcome: "changed",
    });
  });

  test("a refusal is final: the tool is skipped and no later hook, afterToolExecute included, is consulted", async () => {
    const tools = toolSet({ shell: () => ({ text: "ran", isError: false }) });
    const hooks = hookSet({
      guard: { beforeToolExecute: () => ({ allow: false, reason: "not today" }) },
      later: {
        beforeToolExecute: () => ({ arguments: { command: "ls" } }),
        afterToolExecute: () => ({ text: "all fine", isError: false }),
      },
    });
    const session = memorySession();
    const run = input({
      modelPort: scriptedModel([
        { calls: [{ id: "1", name: "shell", arguments: { command: "rm -rf /" } }] },
        { text: "ok" },
      ]),
      tools,
      hooks,
      session,
    });
    await runAgent(run);
    expect(tools.calls).toHaveLength(0);
    expect(hooks.log).not.toContain("later.beforeToolExecute");
    expect(hooks.log).not.toContain("later.afterToolExecute");
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({ text: "not today", isError: true });
    expect(session.stored[2]!.blocks).toEqual([
      {
        type: "tool_result",
        toolResultCallId: "1",
        toolResult: [{ type: "text", text: "not today" }],
        toolResultIsError: true,
      },
    ]);
  });

  test("a reason set by an earlier hook without refusing is kept, and carried by a later refusal that gives none", async () => {
    const tools = toolSet({ shell: () => ({ text: "ran", isError: false }) });
    const hooks = hookSet({
      annotate: { beforeToolExecute: () => ({ reason: "deletes the whole disk" }) },
      silent: { beforeToolExecute: () => ({ arguments: { command: "rm -rf / --no-preserve-root" } }) },
      policy: { beforeToolExecute: () => ({ allow: false }) },
    });
    const run = input({
      modelPort: scriptedModel([
        { calls: [{ id: "1", name: "shell", arguments: { command: "rm -rf /" } }] },
        { text: "ok" },
      ]),
      tools,
      hooks,
    });
    await runAgent(run);
    expect(tools.calls).toHaveLength(0);
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({
      text: "deletes the whole disk",
      isError: true,
    });
  });

  test("allow: false beside a malformed field still refuses (with the default reason), reported as malformed", async () => {
    const tools = toolSet({ shell: () => ({ text: "ran", isError: false }) });
    const hooks = hookSet({
      guard: { beforeToolExecute: () => ({ allow: false, reason: { why: "an object, not a string" } }) },
      later: { beforeToolExecute: () => ({ arguments: { command: "ls" } }) },
    });
    const run = input({
      modelPort: scriptedModel([
        { calls: [{ id: "1", name: "shell", arguments: { command: "rm -rf /" } }] },
        { text: "ok" },
      ]),
      tools,
      hooks,
    });
    await runAgent(run);
    expect(tools.calls).toHaveLength(0);
    expect(hooks.log).not.toContain("later.beforeToolExecute");
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({
      text: 'refused by hook "guard"',
      isError: true,
    });
    const notices = run.events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message);
    expect(notices).toEqual([
      'hook "guard" returned an invalid value from beforeToolExecute: reason must be a string, got an object',
    ]);
  });

  test("the tool_call event carries the arguments that ran, and the model's when a hook rewrote them", async () => {
    const tools = toolSet({ echo: (a) => ({ text: JSON.stringify(a), isError: false }) });
    const hooks = hookSet({
      fix: {
        beforeToolExecute: (_c, call) =>
          (call as { id: string }).id === "1" ? { arguments: { safe: true } } : undefined,
      },
    });
    const calls = [
      { id: "1", name: "echo", arguments: { safe: false } },
      { id: "2", name: "echo", arguments: { untouched: 1 } },
    ];
    const run = input({ modelPort: scriptedModel([{ calls }, { text: "ok" }]), tools, hooks });
    await runAgent(run);
    const announced = run.events.filter((e) => e.type === "tool_call");
    expect(announced).toEqual([
      { type: "tool_call", id: "1", name: "echo", arguments: { safe: true }, originalArguments: { safe: false } },
      { type: "tool_call", id: "2", name: "echo", arguments: { untouched: 1 } },
    ]);
  });

  test("an afterModelResponse hook may empty the answer: the run ends normally and the empty answer is stored", async () => {
    const session = memorySession();
    const hooks = hookSet({ hush: { afterModelResponse: () => ({ text: "" }) } });
    const run = input({ modelPort: scriptedModel([{ text: "the secret is 42" }]), hooks, session });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("end_turn");
    expect(session.stored[1]).toEqual({ role: "assistant", blocks: [{ type: "text", text: "" }] });
    expect(JSON.stringify(run.events)).not.toContain("secret");
  });

  test("an interrupt while afterModelResponse runs neither shows nor stores the answer the hooks had not finished with", async () => {
    const controller = new AbortController();
    const session = memorySession();
    const hooks = hookSet({
      redact: {
        afterModelResponse: () => {
          controller.abort();
          return INTERRUPTED;
        },
      },
      audit: { afterModelResponse: () => undefined },
    });
    const run = input({
      modelPort: scriptedModel([{ text: "key sk-123" }]),
      hooks,
      session,
      signal: controller.signal,
    });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("interrupted");
    expect(hooks.log).not.toContain("audit.afterModelResponse");
    expect(JSON.stringify(run.events)).not.toContain("sk-123");
    expect(JSON.stringify(session.stored)).not.toContain("sk-123");
    expect(session.stored.map((m) => m.role)).toEqual(["user"]);
  });

  test("an interrupt while afterToolExecute runs stores the interrupted result, not the unfiltered one", async () => {
    const controller = new AbortController();
    const session = memorySession();
    const tools = toolSet({ cat: () => ({ text: "password=hunter2", isError: false }) });
    const hooks = hookSet({
      filter: {
        afterToolExecute: () => {
          controller.abort();
          return INTERRUPTED;
        },
      },
    });
    const run = input({
      modelPort: scriptedModel([{ calls: [{ id: "1", name: "cat", arguments: {} }] }]),
      tools,
      hooks,
      session,
      signal: controller.signal,
    });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("interrupted");
    expect(JSON.stringify(session.stored)).not.toContain("hunter2");
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({
      text: INTERRUPTED_RESULT_TEXT,
      isError: true,
    });
  });

  test("an interrupted beforeModelRequest hook ends the run before any request", async () => {
    const controller = new AbortController();
    const hooks = hookSet({
      date: {
        beforeModelRequest: () => {
          controller.abort();
          return INTERRUPTED;
        },
      },
    });
    const modelPort = scriptedModel([{ text: "never" }]);
    const run = input({ modelPort, hooks, signal: controller.signal });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("interrupted");
    expect(modelPort.requests).toHaveLength(0);
    expect(run.events.filter((e) => e.type === "notice")).toEqual([]);
  });

  test("argument rewrites reach the next hook and the tool, even repairing an unknown call", async () => {
    const tools = toolSet({ echo: (a) => ({ text: JSON.stringify(a), isError: false }) });
    const seen: unknown[] = [];
    const hooks = hookSet({
      fix: { beforeToolExecute: () => ({ arguments: { fixed: true } }) },
      look: { beforeToolExecute: (_c, call) => void seen.push((call as { arguments: unknown }).arguments) },
    });
    const run = input({
      modelPort: scriptedModel([{ calls: [{ id: "1", name: "echo", arguments: "{not json" }] }, { text: "ok" }]),
      tools,
      hooks,
    });
    await runAgent(run);
    expect(seen).toEqual([{ fixed: true }]);
    expect(tools.calls[0]!.arguments).toEqual({ fixed: true });
  });

  test("a throwing or malformed hook is a notice and counts as no opinion", async () => {
    const hooks = hookSet({
      broken: {
        beforeModelRequest: () => {
          throw new Error("boom");
        },
      },
      odd: { beforeModelRequest: () => ({ system: 42 }) },
    });
    const modelPort = scriptedModel([{ text: "fine" }]);
    const run = input({ modelPort, hooks });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("end_turn");
    expect(modelPort.requests[0]!.system).toBe("You are terse.");
    const notices = run.events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message);
    expect(notices).toEqual([
      'hook "broken" failed in beforeModelRequest: boom',
      'hook "odd" returned an invalid value from beforeModelRequest: system must be a string, got a number',
    ]);
  });

  test("an interrupt during tools records a result for every call and afterRun sees interrupted", async () => {
    const controller = new AbortController();
    const session = memorySession();
    let reason = "";
    const tools = toolSet({
      slow: () => {
        controller.abort();
        return { text: INTERRUPTED_RESULT_TEXT, isError: true };
      },
      other: () => ({ text: "never", isError: false }),
    });
    const hooks = hookSet({ audit: { afterRun: (_c, e) => void (reason = (e as { reason: string }).reason) } });
    const modelPort = scriptedModel([
      {
        calls: [
          { id: "1", name: "slow", arguments: {} },
          { id: "2", name: "other", arguments: {} },
        ],
      },
    ]);
    const outcome = await runAgent(input({ modelPort, tools, hooks, session, signal: controller.signal }));
    expect(outcome.reason).toBe("interrupted");
    expect(reason).toBe("interrupted");
    const results = session.stored.flatMap((m) => m.blocks).filter((b) => b.type === "tool_result");
    expect(results.map((b) => (b as { toolResultCallId: string }).toolResultCallId)).toEqual(["1", "2"]);
    expect(tools.calls.map((c) => c.name)).toEqual(["slow"]);
    expect(session.interruptions).toEqual([4]);
  });

  test("an interrupt while the model answers records the interruption after the prompt; none before the prompt is stored", async () => {
    const controller = new AbortController();
    const session = memorySession();
    const modelPort: ModelPort = {
      async *stream(): AsyncIterable<StreamEvent> {
        controller.abort();
        yield { type: "error", failure: { kind: "aborted", message: "aborted", retryable: false } };
      },
    };
    const outcome = await runAgent(input({ modelPort, session, signal: controller.signal }));
    expect(outcome.reason).toBe("interrupted");
    expect(session.stored.map((m) => m.role)).toEqual(["user"]);
    expect(session.interruptions).toEqual([1]);

    const early = new AbortController();
    const untouched = memorySession();
    const hooks = hookSet({ audit: { beforeRun: () => void early.abort() } });
    expect(
      (await runAgent(input({ modelPort: scriptedModel([]), session: untouched, hooks, signal: early.signal }))).reason,
    ).toBe("interrupted");
    expect(untouched.stored).toEqual([]);
    expect(untouched.interruptions).toEqual([]);
  });

  test("a run that fails after storing its prompt records the failure there, so the next prompt is not glued onto it", async () => {
    const session = memorySession();
    const outcome = await runAgent(input({ modelPort: scriptedModel([{ fail: "bad request" }]), session }));
    expect(outcome.reason).toBe("error");
    expect(session.stored.map((m) => m.role)).toEqual(["user"]);
    expect(session.failures).toEqual([1]);
    expect(session.interruptions).toEqual([]);
  });
});

describe("permission rules (issue 43)", () => {
  test("checked before the hooks: a refusal is the call's result and a permission event, and no hook or tool sees the call", async () => {
    const tools = toolSet({ shell: () => ({ text: "ran", isError: false }) });
    const hooks = hookSet({ guard: { beforeToolExecute: () => undefined } });
    const seen: string[] = [];
    const withRules: HookPort = {
      ...hooks,
      permissions: {
        async check(call) {
          seen.push(call.id);
          if (call.id === "c1")
            return {
              kind: "refuse",
              reason: 'refused by the permission rule deny shell "rm" (config.yaml)',
              rule: 'deny shell "rm" (config.yaml)',
              asked: false,
            };
          return { kind: "allowed", rule: 'ask shell "ls" (config.yaml)' };
        },
      },
    };
    const calls = [
      { id: "c1", name: "shell", arguments: { command: "rm -rf x" } },
      { id: "c2", name: "shell", arguments: { command: "ls" } },
    ];
    const run = input({ modelPort: scriptedModel([{ calls }, { text: "done" }]), tools, hooks: withRules });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("end_turn");
    expect(seen).toEqual(["c1", "c2"]);
    expect(hooks.log).toEqual(["guard.beforeToolExecute"]);
    expect(tools.calls.map((c) => c.arguments)).toEqual([{ command: "ls" }]);
    const order = run.events
      .filter((e) => ["permission", "tool_call", "tool_result"].includes(e.type))
      .map((e) => `${e.type}:${"id" in e ? e.id : ""}`);
    expect(order).toEqual([
      "permission:c1",
      "tool_call:c1",
      "tool_result:c1",
      "permission:c2",
      "tool_call:c2",
      "tool_result:c2",
    ]);
    expect(run.events.find((e) => e.type === "permission" && e.id === "c1")).toEqual({
      type: "permission",
      id: "c1",
      name: "shell",
      outcome: "refused",
      rule: 'deny shell "rm" (config.yaml)',
      message: 'refused by the permission rule deny shell "rm" (config.yaml)',
    });
    expect(run.events.find((e) => e.type === "tool_result" && e.id === "c1")).toMatchObject({
      isError: true,
      text: 'refused by the permission rule deny shell "rm" (config.yaml)',
    });
    expect(run.events.find((e) => e.type === "permission" && e.id === "c2")).toMatchObject({ outcome: "approved" });
  });

  test("an interrupt while a rule asks ends the call as interrupted", async () => {
    const controller = new AbortController();
    const tools = toolSet({ shell: () => ({ text: "ran", isError: false }) });
    const hooks: HookPort = {
      ...hookSet({}),
      permissions: {
        async check() {
          controller.abort();
          return { kind: "refuse", reason: "not answered", asked: true };
        },
      },
    };
    const run = input({
      modelPort: scriptedModel([{ calls: [{ id: "c1", name: "shell", arguments: { command: "ls" } }] }]),
      tools,
      hooks,
      signal: controller.signal,
    });
    const outcome = await runAgent(run);
    expect(outcome.reason).toBe("interrupted");
    expect(tools.calls).toEqual([]);
    expect(run.events.find((e) => e.type === "tool_result")).toMatchObject({
      text: INTERRUPTED_RESULT_TEXT,
      isError: true,
    });
    expect(run.events.some((e) => e.type === "permission")).toBe(false);
  });
});
