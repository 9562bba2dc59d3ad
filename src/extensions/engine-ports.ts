/**
 * Loaded tools and hooks as the engine's ToolPort and HookPort: each call
 * gets the `ctx` of the run (its data, bound once the session exists) and
 * a front end that asks and tells through the run's dialogs, naming the
 * tool call that asks.
 */
import type { HookAnswer, HookPort, OutputObserver, ToolPort } from "../engine/index.ts";
import type { ContextData, FrontEnd, Prompt, Tool, ToolCallContext, ToolRunner } from "../tools/index.ts";
import type { Hook } from "./types.ts";

/** How a tool or hook asks and tells the user: the run's front end. */
export interface ExtensionDialogs {
  confirm(prompt: Prompt, level?: number, origin?: { callId: string }): Promise<boolean>;
  notify: FrontEnd["notify"];
}

/** The agent's tools as they are now, and a number that changes when they do (an MCP server's list changed). */
export interface CurrentTools {
  version(): number;
  tools(): Tool[];
}

/** The two ports, and how to give them the run's `ctx` data. */
export interface ExtensionPorts {
  tools: ToolPort;
  hooks: HookPort;
  /** Sets the `ctx` data every later invocation receives; a call before it is a bug. */
  bind(data: ContextData): void;
}

type ContextFor = (observer: OutputObserver, signal: AbortSignal) => ToolCallContext;

export function extensionPorts(options: {
  tools: CurrentTools;
  hooks: readonly Hook[];
  runner: ToolRunner;
  dialogs: ExtensionDialogs;
}): ExtensionPorts {
  const { dialogs } = options;
  let data: ContextData | undefined;
  const contextFor: ContextFor = (observer, signal) => {
    if (!data) throw new Error("extension context used before the run was bound");
    return {
      data,
      signal,
      frontEnd: {
        log: observer.log,
        output: observer.output,
        confirm: (prompt) =>
          dialogs.confirm(prompt, undefined, observer.callId !== undefined ? { callId: observer.callId } : undefined),
        notify: dialogs.notify,
      },
    };
  };
  return {
    tools: toolPort(options.tools, options.runner, contextFor),
    hooks: hookPort(options.hooks, contextFor),
    bind: (next) => void (data = next),
  };
}

function toolPort(current: CurrentTools, runner: ToolRunner, contextFor: ContextFor): ToolPort {
  let seen = -1;
  let byName = new Map<string, Tool>();
  let specs: { name: string; description: string; parameters: Record<string, unknown> }[] = [];
  const refresh = () => {
    const version = current.version();
    if (version === seen) return;
    seen = version;
    const tools = current.tools();
    byName = new Map(tools.map((t) => [t.name, t]));
    specs = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  };
  return {
    specs: () => {
      refresh();
      return specs;
    },
    has: (name) => {
      refresh();
      return byName.has(name);
    },
    async run(call, observer, signal) {
      refresh();
      const tool = byName.get(call.name);
      if (!tool) return { text: `unknown tool "${call.name}"`, isError: true };
      return runner.runTool(tool, call.arguments, contextFor(observer, signal));
    },
  };
}

function hookPort(hooks: readonly Hook[], contextFor: ContextFor): HookPort {
  const byName = new Map(hooks.map((h) => [h.name, h]));
  return {
    names: hooks.map((h) => h.name),
    handles: (name, point) => byName.get(name)?.points.includes(point) ?? false,
    async call(name, point, args, observer, signal): Promise<HookAnswer> {
      const hook = byName.get(name);
      if (!hook) return { kind: "failed", message: `unknown hook "${name}"` };
      // Its answer already is the port's: returned (the runtime's description of the value aside), failed or interrupted.
      return hook.call(point, args, contextFor(observer, signal));
    },
  };
}
