/**
 * The MCP half of `rienda tool list` and `rienda tool run`: servers come
 * from the user's config.yaml only (none when there is no such file).
 */
import type { LoadedConfig, McpServerSettings } from "../../config/index.ts";
import { serverPart, startMcpServers, unlistedToolError } from "../../mcp/index.ts";
import { createToolRunner, type ContextData, type ToolResult } from "../../tools/index.ts";
import { createTerminalFrontEnd } from "../../ui/index.ts";
import { stderrForPeople } from "../shared/for-people.ts";

/** The server `name` (`server__tool`) belongs to, when config.yaml declares it. */
export function mcpServerOf(name: string, config: LoadedConfig | undefined): McpServerSettings | undefined {
  const server = serverPart(name);
  return server === undefined ? undefined : config?.mcpServers.get(server);
}

/**
 * Lines for `tool list`: each configured server with its state, then its
 * tools like the others (name, description, source). Every server is
 * started at once, each with its startup timeout, and closed afterwards.
 */
export async function mcpListing(config: LoadedConfig, workdir: string): Promise<string[]> {
  const servers = await startMcpServers([...config.mcpServers.values()], {
    workdir,
    env: process.env,
    configPath: config.path,
    requireAll: false,
  });
  try {
    const lines: string[] = [];
    for (const connection of servers.connections) {
      const tools = servers.toolsOf(connection.name);
      const state =
        connection.state === "ready"
          ? `started, ${tools.length} tool${tools.length === 1 ? "" : "s"}`
          : `failed to start: ${connection.failure ?? "unknown reason"}`;
      lines.push(`MCP server ${connection.name} (${connection.describe()}): ${state}`);
      for (const tool of tools) {
        lines.push(`  ${tool.name}`, `      ${tool.description.trim().split("\n")[0] ?? ""}`);
      }
    }
    for (const notice of servers.notices) stderrForPeople().write(`${notice}\n`);
    return lines;
  } finally {
    await servers.close();
  }
}

/** `tool run server__tool`: starts that server alone, runs one call, closes it. */
export async function runMcpTool(options: {
  name: string;
  server: McpServerSettings;
  config: LoadedConfig;
  /** The call's `ctx` data (its workspace is the server's cwd when it has none of its own). */
  data: ContextData;
  args: Record<string, unknown>;
  autoApprove: boolean;
  signal: AbortSignal;
}): Promise<ToolResult> {
  const { name, config, data, signal } = options;
  const runner = createToolRunner();
  runner.prepare();
  const servers = await startMcpServers([options.server], {
    workdir: data.workdir,
    env: process.env,
    configPath: config.path,
    requireAll: true,
    signal,
  });
  try {
    const tools = servers.toolsOf(options.server.name);
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw unlistedToolError(name, options.server.name, tools);
    const frontEnd = createTerminalFrontEnd({ autoApprove: options.autoApprove, signal });
    return await runner.runTool(tool, options.args, { data, frontEnd, signal });
  } finally {
    await servers.close();
  }
}
