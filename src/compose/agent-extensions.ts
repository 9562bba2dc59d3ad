/**
 * The agent's tools and hooks, loaded from ~/.rienda (and its MCP servers'
 * tools) and handed to the engine through the ports of extensions/. Only
 * what the agent names is loaded, so a run starts fast however many
 * extensions are installed; anything missing or broken fails here, before
 * the first model request.
 */
import { join } from "node:path";
import type { Agent } from "../agents/index.ts";
import type { McpServerSettings } from "../config/index.ts";
import type { HookPort, ToolPort } from "../engine/index.ts";
import {
  brokenExtension,
  discoverHooks,
  discoverTools,
  extensionPorts,
  missingExtensionError,
  type CurrentTools,
  type ExtensionNames,
  type Hook,
  type HookCatalog,
  type ToolCatalog,
} from "../extensions/index.ts";
import { RiendaError } from "../errors.ts";
import {
  isServerWildcard,
  resolveToolNames,
  serverList,
  serverPart,
  splitToolNames,
  startMcpServers,
  type McpServers,
  type ToolNameSplit,
} from "../mcp/index.ts";
import { createRuntime, type Runtime } from "../runtime/index.ts";
import type { CommandSandbox } from "../sandbox/index.ts";
import {
  createToolRunner,
  shellEnvFilter,
  type ContextData,
  type ShellEnvPolicy,
  type Tool,
  type ToolRunner,
} from "../tools/index.ts";
import type { Dialogs } from "./types.ts";

/** Loaded extensions of one agent. */
export interface AgentExtensions {
  tools: ToolPort;
  hooks: HookPort;
  /** Diagnostics worth showing even though the run can go on (a user tool replacing a built-in). */
  notices: string[];
  /** Sets the `ctx` data every later invocation receives (known once the session exists). */
  bind(data: ContextData): void;
  /** Ends running invocations and the realm helper; resolves once the MCP servers have ended. */
  close(): Promise<void>;
}

/** The MCP servers of config.yaml and where their processes run. */
export interface McpSetup {
  servers: ReadonlyMap<string, McpServerSettings>;
  configPath: string;
  /** The run's workspace: the cwd of a stdio server without its own. */
  workdir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** An interrupt ends the servers' start. */
  signal?: AbortSignal;
}

/** What loadAgentExtensions is given. */
export interface AgentExtensionsOptions {
  home: string;
  agent: Agent;
  dialogs: Dialogs;
  /** Tools that come with the agent's definition rather than its `tools:` (the `skill` tool), offered after those. */
  builtIns?: readonly Tool[];
  /** Absent: no MCP server is configured. */
  mcp?: McpSetup;
  /** config.yaml's `shell:` with the providers' key variables: what the `shell` tool's commands do not inherit. */
  shellEnv?: ShellEnvPolicy;
  /** Where the `shell` tool's commands run; none: unsandboxed. */
  shellSandbox?: CommandSandbox;
}

/** What was loaded for the agent, before its names are checked against it. */
interface Loaded {
  agent: Agent;
  riendaDir: string;
  runtime: Runtime;
  runner: ToolRunner;
  /** The agent's `tools:` told apart: user and built-in tools, MCP servers. */
  split: ToolNameSplit;
  /** The MCP servers config.yaml declares (and where, for messages). */
  configured: ReadonlySet<string>;
  configPath: string;
  toolCatalog: ToolCatalog;
  hookCatalog: HookCatalog | undefined;
  servers: McpServers | undefined;
}

/** Loads the agent's tools and hooks; throws a RiendaError naming every missing or broken one, a line each. */
export async function loadAgentExtensions(options: AgentExtensionsOptions): Promise<AgentExtensions> {
  const { agent, mcp } = options;
  const riendaDir = join(options.home, ".rienda");
  const configured: ReadonlySet<string> = new Set(mcp?.servers.keys() ?? []);
  const configPath = mcp?.configPath ?? "config.yaml";
  const split = splitToolNames(agent.tools, configured, configPath);
  const runtime = createRuntime();
  let servers: McpServers | undefined;
  let starting: Promise<void> | undefined;
  try {
    const runner = createToolRunner();
    // Only the servers this agent uses, all at once, while the tool modules load (the SDK loads only here).
    starting =
      mcp && split.servers.length > 0
        ? startMcpServers(
            split.servers.map((name) => mcp.servers.get(name)!),
            { ...mcp, requireAll: false },
          ).then((s) => void (servers = s))
        : undefined;
    const [toolCatalog, hookCatalog] = await Promise.all([
      discoverTools({
        riendaDir,
        runtime,
        runner,
        names: split.userTools,
        ...(options.shellEnv ? { shellHiddenEnv: shellEnvFilter(options.shellEnv) } : {}),
        ...(options.shellSandbox ? { shellSandbox: options.shellSandbox } : {}),
      }),
      agent.hooks.length > 0 ? discoverHooks({ riendaDir, runtime, names: agent.hooks }) : undefined,
      starting,
    ]);
    const loaded: Loaded = {
      agent,
      riendaDir,
      runtime,
      runner,
      split,
      configured,
      configPath,
      toolCatalog,
      hookCatalog,
      servers,
    };
    return extensionsReady(loaded, options, await checkNames(loaded));
  } catch (error) {
    void runtime.close();
    await starting?.catch(() => undefined);
    await servers?.close();
    throw error;
  }
}

/** The agent's tools and hooks, every name checked. */
interface Checked {
  /** The agent's tools as of now: asked again when a server's tools change. */
  resolve: () => ResolvedTools;
  tools: Tool[];
  hooks: Hook[];
}

type ResolvedTools = ReturnType<typeof resolveToolNames>;

/**
 * The agent's tools and hooks; throws a RiendaError listing every name that is
 * missing or broken and every server that did not start: fixing them one
 * run at a time is tedious.
 */
async function checkNames(loaded: Loaded): Promise<Checked> {
  const { agent, hookCatalog, servers } = loaded;
  const known = await namesForMessages(loaded);
  const missing: RiendaError[] = (servers?.connections ?? []).flatMap((c) =>
    c.state === "ready"
      ? []
      : [new RiendaError("extension", `MCP server "${c.name}" failed to start: ${c.failure ?? "unknown reason"}`)],
  );
  const resolve = () => resolveAgentTools(loaded, known.tools);
  const resolved = resolve();
  missing.push(...resolved.missing);
  const hooks = agent.hooks.flatMap((name) => {
    const hook = hookCatalog?.hooks.find((h) => h.name === name);
    if (!hook) missing.push(missingExtensionError("hook", name, known.hooks ?? { diagnostics: [], available: [] }));
    return hook ? [hook] : [];
  });
  if (missing.length > 0) throw new RiendaError("extension", missing.map((e) => e.message).join("\n"));
  return { resolve, tools: resolved.tools, hooks };
}

/**
 * The names a "missing" message lists: what was loaded, unless some name is
 * neither loaded nor broken; only then is every installed module looked at,
 * so the list of what exists can set the broken ones apart.
 */
async function namesForMessages(loaded: Loaded): Promise<{ tools: ExtensionNames; hooks: ExtensionNames | undefined }> {
  const { agent, riendaDir, runtime, runner, split, toolCatalog, hookCatalog } = loaded;
  const anyUnknown = (
    kind: "tool" | "hook",
    found: readonly { name: string }[],
    catalog: ExtensionNames,
    names: readonly string[],
  ) => names.some((n) => !found.some((e) => e.name === n) && !brokenExtension(kind, n, catalog));
  const tools = anyUnknown("tool", toolCatalog.tools, toolCatalog, split.userTools)
    ? await discoverTools({ riendaDir, runtime, runner })
    : toolCatalog;
  const hooks =
    hookCatalog && anyUnknown("hook", hookCatalog.hooks, hookCatalog, agent.hooks)
      ? await discoverHooks({ riendaDir, runtime })
      : hookCatalog;
  return { tools, hooks };
}

/** The agent's `tools:` as tools, in its order, with an error for each one missing. */
function resolveAgentTools(loaded: Loaded, toolNames: ExtensionNames): ResolvedTools {
  const { agent, configured, configPath, toolCatalog, servers } = loaded;
  return resolveToolNames(
    agent.tools,
    configured,
    (name) => {
      const tool = toolCatalog.tools.find((t) => t.name === name);
      if (tool) return tool;
      // A name like server__tool may have meant an MCP server's tool.
      const server = serverPart(name);
      return missingExtensionError(
        "tool",
        name,
        toolNames,
        server === undefined ? undefined : `"${server}" is not an MCP server: ${serverList(configured, configPath)}`,
      );
    },
    // A server that did not start is reported with the other problems, not once per tool.
    (server) =>
      servers?.connections.find((c) => c.name === server)?.state === "ready" ? servers.toolsOf(server) : undefined,
  );
}

/** The checked tools and hooks wired into the engine's ports, the runtime told what to expect. */
function extensionsReady(
  loaded: Loaded,
  options: AgentExtensionsOptions,
  { resolve, tools, hooks }: Checked,
): AgentExtensions {
  const { agent, runtime, runner, split, configured, toolCatalog, hookCatalog, servers } = loaded;
  const notices = extensionNotices(agent, toolCatalog, hookCatalog, servers, configured);
  // The built-in shell runs a process, not a context: an agent with no other tool and no hook invokes nothing.
  const invokes = hooks.length > 0 || toolCatalog.tools.some((t) => !t.builtIn && split.userTools.includes(t.name));
  if (invokes) runtime.expectCalls();
  // The argument validator loads while the first request is out (the
  // request is on its way by then), not when the first tool call waits.
  if (tools.length > 0 || (options.builtIns ?? []).length > 0)
    (setTimeout(() => runner.prepare(), 20) as { unref?(): void }).unref?.();

  const builtIns = options.builtIns ?? [];
  // A server whose tools change (it says so) offers the new list from the next request on:
  // `server__*` gets every tool it lists now, a named tool it no longer lists is gone.
  const current: CurrentTools = servers
    ? { version: () => servers.version(), tools: () => [...resolve().tools, ...builtIns] }
    : { version: () => 0, tools: () => [...tools, ...builtIns] };
  const ports = extensionPorts({ tools: current, hooks, runner, dialogs: options.dialogs });
  return {
    tools: ports.tools,
    hooks: ports.hooks,
    notices,
    bind: ports.bind,
    close: async () => {
      void runtime.close();
      await servers?.close();
    },
  };
}

/**
 * What is worth showing even though the run goes on: the diagnostics of the
 * agent's own tools and hooks (a user tool replacing a built-in), the MCP
 * servers' notices, and a `server__*` of a server that lists no tools.
 */
function extensionNotices(
  agent: Agent,
  tools: ToolCatalog,
  hooks: HookCatalog | undefined,
  servers: McpServers | undefined,
  configured: ReadonlySet<string>,
): string[] {
  const notices = [
    ...tools.diagnostics.filter((d) => agent.tools.includes(d.name)),
    ...(hooks?.diagnostics ?? []).filter((d) => d.warning && agent.hooks.includes(d.name)),
  ]
    .map((d) => d.message)
    .concat(servers?.notices ?? []);
  // `server__*` of a server that lists nothing gives the agent no tool: legal, but rarely what was meant.
  for (const name of agent.tools) {
    const server = serverPart(name);
    if (
      server === undefined ||
      !isServerWildcard(name) ||
      !configured.has(server) ||
      servers?.toolsOf(server).length !== 0
    )
      continue;
    notices.push(`MCP server "${server}" lists no tools: ${name} gives the agent none`);
  }
  return notices;
}
