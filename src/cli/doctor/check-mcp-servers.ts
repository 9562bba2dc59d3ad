/**
 * Findings about `mcp_servers:`: each configured server is started (with its
 * startup timeout) and listed; one that fails is a problem with a fix. Agents
 * that name MCP tools are checked against what the servers list.
 */
import type { Agent } from "../../agents/index.ts";
import type { LoadedConfig } from "../../config/index.ts";
import {
  isServerWildcard,
  serverPart,
  unknownServerError,
  unlistedToolError,
  type McpServers,
} from "../../mcp/index.ts";
import type { Finding } from "./types.ts";

/** A problem for each server that did not start. */
export function checkMcpServers(config: Pick<LoadedConfig, "path" | "mcpServers">, servers: McpServers): Finding[] {
  return servers.connections
    .filter((c) => c.state !== "ready")
    .map((c) => {
      const failure = c.failure ?? "unknown reason";
      return {
        severity: "problem" as const,
        check: "mcp" as const,
        file: config.path,
        key: `mcp_servers.${c.name}`,
        name: c.name,
        message: `MCP server "${c.name}" (${c.describe()}) failed to start: ${failure}`,
        hint: mcpHint(failure, config.mcpServers.get(c.name)?.transport ?? "stdio"),
      };
    });
}

/** A fix for one way a server fails to start. */
export function mcpHint(failure: string, transport: "stdio" | "http"): string {
  if (/environment variable \S+ is not set/.test(failure))
    return "set the variable before running Rienda, or write ${NAME:-default} in config.yaml";
  if (/no such command/.test(failure))
    return "install the server, or correct command (and cwd) so that the program is found";
  if (/not JSON-RPC/.test(failure))
    return "start the server in its stdio mode (see its documentation), so that it writes only protocol messages to stdout";
  if (/timed out/.test(failure)) {
    return transport === "http"
      ? "check that the server at url is running and answers MCP requests, or raise startup_timeout_ms"
      : "raise startup_timeout_ms if the server is slow to start; otherwise run the command by hand to see what it waits for";
  }
  if (/ECONNREFUSED|Unable to connect|cannot connect/i.test(failure))
    return "start the server, or correct url: nothing answers there";
  if (/exited/.test(failure)) return "run the command by hand to see why it exits (its stderr is quoted above)";
  return transport === "http"
    ? "check url and headers (a 401 or 403 means the credentials are wrong)"
    : "run the command by hand to see what goes wrong";
}

/** Names an agent may use that belong to MCP servers (checked here, not as user tools). */
export function isMcpReference(name: string, config: Pick<LoadedConfig, "mcpServers">): boolean {
  const server = serverPart(name);
  return isServerWildcard(name) || (server !== undefined && config.mcpServers.has(server));
}

/** A problem for each MCP tool an agent names that no server provides. */
export function checkAgentMcpTools(
  agents: readonly Agent[],
  config: Pick<LoadedConfig, "path" | "mcpServers">,
  servers: McpServers,
): Finding[] {
  const findings: Finding[] = [];
  const configured = new Set(config.mcpServers.keys());
  for (const agent of agents) {
    agent.tools.forEach((name, index) => {
      if (!isMcpReference(name, config)) return;
      const server = serverPart(name)!;
      const at = {
        severity: "problem" as const,
        check: "agent" as const,
        file: agent.file,
        key: `tools[${index}]`,
        name: agent.id,
      };
      if (!configured.has(server)) {
        findings.push({
          ...at,
          message: unknownServerError(name, server, configured, config.path).message,
          hint: `declare "${server}" under mcp_servers in ${config.path}, or remove "${name}" from tools:`,
        });
        return;
      }
      const connection = servers.connections.find((c) => c.name === server);
      // A server that did not start has its own finding.
      if (connection?.state !== "ready" || isServerWildcard(name)) return;
      const tools = servers.toolsOf(server);
      if (tools.some((t) => t.name === name)) return;
      findings.push({
        ...at,
        message: unlistedToolError(name, server, tools).message,
        hint: `write one of the listed names, or ${server}__* for all of them`,
      });
    });
  }
  return findings;
}
