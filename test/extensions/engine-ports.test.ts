import { describe, expect, test } from "bun:test";
import type { OutputObserver } from "../../src/engine/index.ts";
import { extensionPorts, type CurrentTools, type ExtensionDialogs, type Hook } from "../../src/extensions/index.ts";
import type { ContextData, Tool, ToolCallContext, ToolRunner } from "../../src/tools/index.ts";

const tool = (name: string): Tool =>
  ({ name, description: `${name} tool`, parameters: { type: "object" } }) as unknown as Tool;

/** A runner that answers with what the tool was given, and keeps the context. */
function recordingRunner(): { runner: ToolRunner; contexts: ToolCallContext[] } {
  const contexts: ToolCallContext[] = [];
  const runner = {
    async runTool(t: Tool, args: unknown, context: ToolCallContext) {
      contexts.push(context);
      return { text: `${t.name} ${JSON.stringify(args)}`, isError: false };
    },
  } as unknown as ToolRunner;
  return { runner, contexts };
}

const observer: OutputObserver = { callId: "call-1", log() {}, output() {} };
const data = { workdir: "/home/ana/project" } as unknown as ContextData;

describe("extensionPorts", () => {
  test("a tool call runs with the bound ctx data, and its confirm names the call", async () => {
    const asked: unknown[] = [];
    const dialogs: ExtensionDialogs = {
      confirm: async (...args) => {
        asked.push(args);
        return true;
      },
      notify() {},
    };
    const { runner, contexts } = recordingRunner();
    const ports = extensionPorts({
      tools: { version: () => 0, tools: () => [tool("count")] },
      hooks: [],
      runner,
      dialogs,
    });
    ports.bind(data);
    const result = await ports.tools.run(
      { id: "call-1", name: "count", arguments: { n: 1 } } as never,
      observer,
      new AbortController().signal,
    );
    expect(result).toEqual({ text: 'count {"n":1}', isError: false });
    expect(contexts[0]!.data).toBe(data);
    expect(await contexts[0]!.frontEnd.confirm("go on?" as never)).toBe(true);
    expect(asked).toEqual([["go on?", undefined, { callId: "call-1" }]]);
  });

  test("an unknown tool is an error result; a call before bind is a bug", async () => {
    const { runner } = recordingRunner();
    const ports = extensionPorts({
      tools: { version: () => 0, tools: () => [tool("count")] },
      hooks: [],
      runner,
      dialogs: { confirm: async () => false, notify() {} },
    });
    expect(
      await ports.tools.run({ id: "x", name: "nope", arguments: {} } as never, observer, new AbortController().signal),
    ).toEqual({ text: 'unknown tool "nope"', isError: true });
    await expect(
      ports.tools.run({ id: "x", name: "count", arguments: {} } as never, observer, new AbortController().signal),
    ).rejects.toThrow("before the run was bound");
  });

  test("the tool list is read again when its version changes (an MCP server's list changed)", () => {
    let version = 0;
    let names = ["a"];
    const current: CurrentTools = { version: () => version, tools: () => names.map(tool) };
    const ports = extensionPorts({
      tools: current,
      hooks: [],
      runner: recordingRunner().runner,
      dialogs: { confirm: async () => false, notify() {} },
    });
    expect(ports.tools.specs().map((s) => s.name)).toEqual(["a"]);
    names = ["a", "b"];
    expect(ports.tools.has("b")).toBe(false);
    version = 1;
    expect(ports.tools.has("b")).toBe(true);
    expect(ports.tools.specs().map((s) => s.name)).toEqual(["a", "b"]);
  });

  test("hooks: the points each handles, its answer passed on, an unknown name failed", async () => {
    const hook: Hook = {
      name: "guard",
      source: "/x/index.js",
      points: ["beforeRun"],
      call: async () => ({ kind: "returned", value: 1 }) as never,
    };
    const ports = extensionPorts({
      tools: { version: () => 0, tools: () => [] },
      hooks: [hook],
      runner: recordingRunner().runner,
      dialogs: { confirm: async () => false, notify() {} },
    });
    ports.bind(data);
    expect(ports.hooks.names).toEqual(["guard"]);
    expect([ports.hooks.handles("guard", "beforeRun"), ports.hooks.handles("guard", "afterRun")]).toEqual([
      true,
      false,
    ]);
    expect(await ports.hooks.call("guard", "beforeRun", [] as never, observer, new AbortController().signal)).toEqual({
      kind: "returned",
      value: 1,
    } as never);
    expect(await ports.hooks.call("other", "beforeRun", [] as never, observer, new AbortController().signal)).toEqual({
      kind: "failed",
      message: 'unknown hook "other"',
    });
  });
});
