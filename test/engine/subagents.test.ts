import { describe, expect, test } from "bun:test";
import {
  runAgent,
  withSubagents,
  type ChildRun,
  type EngineEvent,
  type HookPort,
  type ModelPort,
  type SessionPort,
  type SubagentOptions,
  type ToolPort,
} from "../../src/engine/index.ts";
import type { Message, ModelRequest, ResolvedModel, StreamEvent } from "../../src/providers/index.ts";
import { capText, RESULT_CAP_BYTES } from "../../src/tools/index.ts";

const model = (ref: string): ResolvedModel => ({
  ref,
  provider: "p",
  alias: ref,
  wireId: ref,
  protocol: "openai_chat_completions",
  baseUrl: "http://127.0.0.1:1",
  apiKey: "",
  headers: {},
});

type Turn = { text?: string; calls?: { id: string; name: string; arguments: unknown }[] } | { fail: string };

function scripted(turns: Turn[]): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async *stream(request): AsyncIterable<StreamEvent> {
      requests.push(structuredClone(request));
      const turn = turns.shift() ?? { fail: "script ran out" };
      if ("fail" in turn) {
        yield {
          type: "error",
          failure: { kind: "invalid_request", message: turn.fail, status: 400, retryable: false },
        };
        return;
      }
      const blocks: Message["blocks"] = [];
      if (turn.text) blocks.push({ type: "text", text: turn.text });
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

const noHooks: HookPort = {
  names: [],
  handles: () => false,
  call: async () => ({ kind: "returned", value: undefined }),
};
const noTools: ToolPort = {
  specs: () => [{ name: "read", description: "reads", parameters: { type: "object" } }],
  has: (n) => n === "read",
  run: async () => ({ text: "read!", isError: false }),
};

function memorySession(id: string): SessionPort & { stored: Message[] } {
  const stored: Message[] = [];
  return {
    id,
    stored,
    messages: () => structuredClone(stored),
    appendMessage: (m) => void stored.push(structuredClone(m)),
    appendInterruption: () => undefined,
  };
}

function options(
  over: Partial<SubagentOptions> & { child?: Turn[] },
): SubagentOptions & { launched: string[]; closed: string[] } {
  const launched: string[] = [];
  const closed: string[] = [];
  return {
    agents: [{ id: "reviewer", description: "Reviews things." }],
    lineage: ["lead"],
    maxDepth: 3,
    launched,
    closed,
    async launch(agentId, call): Promise<ChildRun> {
      launched.push(`${agentId}:${call.id}`);
      return {
        input: {
          system: "You review.",
          model: model("p/small"),
          agentId,
          modelPort: scripted(over.child ?? [{ text: "fine" }]),
          tools: noTools,
          hooks: noHooks,
          session: memorySession("child-1"),
        },
        sessionId: "child-1",
        workdir: "/w",
        close: () => void closed.push(agentId),
      };
    },
    ...over,
  };
}

const call = (prompt: unknown = { prompt: "review it" }) => ({ id: "c1", name: "agent__reviewer", arguments: prompt });

describe("withSubagents", () => {
  test("offers one tool per subagent after the agent's own, with the child's description and a prompt", () => {
    const tools = withSubagents(noTools, options({}));
    expect(tools.specs().map((s) => s.name)).toEqual(["read", "agent__reviewer"]);
    expect(tools.specs()[1]).toMatchObject({
      description: "Reviews things.",
      parameters: { type: "object", required: ["prompt"], additionalProperties: false },
    });
    expect(tools.has("agent__reviewer")).toBe(true);
    expect(tools.has("read")).toBe(true);
    expect(tools.has("agent__ghost")).toBe(false);
  });

  test("a call runs the child on the prompt: its events tagged with the call, its answer and usage returned, the child closed", async () => {
    const opts = options({ child: [{ calls: [{ id: "k1", name: "read", arguments: {} }] }, { text: "looks good" }] });
    const events: EngineEvent[] = [];
    const result = await withSubagents(noTools, opts).run(
      call(),
      { log: () => undefined, output: () => undefined, nested: (e) => events.push(e) },
      new AbortController().signal,
    );
    expect(result).toEqual({ text: "looks good", isError: false, usage: { inputTokens: 20, outputTokens: 10 } });
    expect(opts.launched).toEqual(["reviewer:c1"]);
    expect(opts.closed).toEqual(["reviewer"]);
    expect(events.every((e) => e.parent === "c1")).toBe(true);
    expect(events.filter((e) => !e.type.endsWith("_delta")).map((e) => e.type)).toEqual([
      "subagent_start",
      "message_end",
      "tool_call",
      "tool_result",
      "message_end",
      "subagent_end",
    ]);
    expect(events[0]).toEqual({
      type: "subagent_start",
      sessionId: "child-1",
      agent: "reviewer",
      model: "p/small",
      workdir: "/w",
      parent: "c1",
    });
  });

  test("a child's answer longer than a tool result may be is capped like any tool's", async () => {
    const long = "x".repeat(RESULT_CAP_BYTES + 1000);
    const result = await withSubagents(noTools, options({ child: [{ text: long }] })).run(
      call(),
      { log: () => undefined, output: () => undefined },
      new AbortController().signal,
    );
    expect(result.text).toBe(capText(long));
    expect(result.text.length).toBeLessThan(long.length);
    expect(result.text).toEndWith("[output truncated]");
  });

  test("an event already tagged by a grandchild's call gets the path of call ids down to it", async () => {
    const opts = options({});
    const inner: SubagentOptions = {
      ...opts,
      async launch(agentId, c, emit, signal) {
        emit({ type: "notice", message: "from the grandchild", parent: "g1" });
        return opts.launch(agentId, c, emit, signal);
      },
    };
    const events: EngineEvent[] = [];
    await withSubagents(noTools, inner).run(
      call(),
      { log: () => undefined, output: () => undefined, nested: (e) => events.push(e) },
      new AbortController().signal,
    );
    expect(events[0]).toEqual({ type: "notice", message: "from the grandchild", parent: `${call().id}/g1` });
  });

  test("an interrupt while the child is still being prepared ends the call at once, as interrupted", async () => {
    const controller = new AbortController();
    let launchSignal: AbortSignal | undefined;
    const slow: SubagentOptions = {
      ...options({}),
      launch(_agentId, _call, _emit, signal) {
        launchSignal = signal;
        // Never ready: a tool module that does not finish loading.
        return new Promise<ChildRun>(() => undefined);
      },
    };
    const running = withSubagents(noTools, slow).run(
      call(),
      { log: () => undefined, output: () => undefined },
      controller.signal,
    );
    controller.abort();
    expect(await running).toEqual({ text: 'subagent "reviewer" was interrupted', isError: true });
    expect(launchSignal?.aborted).toBe(true);
  });

  test("a cycle and the depth limit are error results, and nothing is launched", async () => {
    const cycle = options({ lineage: ["reviewer", "lead"] });
    const signal = new AbortController().signal;
    const observer = { log: () => undefined, output: () => undefined };
    expect(await withSubagents(noTools, cycle).run(call(), observer, signal)).toEqual({
      text: 'agent "reviewer" is already running above this call (reviewer → lead → reviewer): an agent cannot delegate to itself, directly or through others',
      isError: true,
    });
    const deep = options({ lineage: ["a", "b"], maxDepth: 1 });
    expect((await withSubagents(noTools, deep).run(call(), observer, signal)).text).toStartWith(
      "subagents nest at most 1 deep",
    );
    const none = options({ maxDepth: 0 });
    expect((await withSubagents(noTools, none).run(call(), observer, signal)).isError).toBe(true);
    expect([...cycle.launched, ...deep.launched, ...none.launched]).toEqual([]);
  });

  test("bad arguments, a child that cannot start and a child that fails are error results", async () => {
    const signal = new AbortController().signal;
    const observer = { log: () => undefined, output: () => undefined };
    expect((await withSubagents(noTools, options({})).run(call({ prompt: "" }), observer, signal)).text).toContain(
      "non-empty prompt",
    );
    expect((await withSubagents(noTools, options({})).run(call("review"), observer, signal)).isError).toBe(true);
    const broken = options({ launch: async () => Promise.reject(new Error('unknown tool "ghost"')) });
    expect(await withSubagents(noTools, broken).run(call(), observer, signal)).toEqual({
      text: 'subagent "reviewer" could not start: unknown tool "ghost"',
      isError: true,
    });
    const failing = options({ child: [{ fail: "too long" }] });
    const result = await withSubagents(noTools, failing).run(call(), observer, signal);
    expect(result.isError).toBe(true);
    expect(result.text).toStartWith('subagent "reviewer" failed: ');
    expect(result.text).toContain("too long");
    expect(failing.closed).toEqual(["reviewer"]);
  });

  test("the parent run's usage includes the child's", async () => {
    const parentModel = scripted([
      { calls: [{ id: "c1", name: "agent__reviewer", arguments: { prompt: "go" } }] },
      { text: "done" },
    ]);
    const outcome = await runAgent({
      prompt: "lead",
      system: "You lead.",
      model: model("p/big"),
      agentId: "lead",
      modelPort: parentModel,
      tools: withSubagents(noTools, options({})),
      hooks: noHooks,
      session: memorySession("parent"),
      emit: () => undefined,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ reason: "end_turn", usage: { inputTokens: 30, outputTokens: 15 } });
  });
});
