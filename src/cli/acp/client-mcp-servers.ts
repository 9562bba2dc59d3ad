/**
 * The MCP servers an editor passes with `session/new` and `session/load`
 * (docs/acp.md "MCP servers"), as Rienda's own server settings: stdio and
 * HTTP servers start as config.yaml's do (mcp/), their tools offered to the
 * agent as `name__tool`. SSE is not offered (initialize says so), and a
 * server that cannot be used is left out with a notice naming why.
 */
import type * as Acp from "@agentclientprotocol/sdk";
import type { McpServerSettings } from "../../config/index.ts";

/** How long an editor's server may take to start, as config.yaml's default. */
const STARTUP_TIMEOUT_MS = 30_000;

/** A server name as a tool-name prefix: letters, digits and "-", single "_" between them, at most 32 characters. */
function serverName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 32)
    .replace(/_+$/, "");
  return cleaned === "" ? "editor" : cleaned;
}

/** The editor's servers Rienda can start, and a notice for each it cannot. */
export function clientMcpServers(servers: readonly Acp.McpServer[]): {
  settings: McpServerSettings[];
  notices: string[];
} {
  const settings: McpServerSettings[] = [];
  const notices: string[] = [];
  const base = { startupTimeoutMs: STARTUP_TIMEOUT_MS, unset: [], expanded: [] };
  for (const server of servers) {
    const name = serverName(server.name);
    if (settings.some((s) => s.name === name)) {
      notices.push(`the editor's MCP server "${server.name}" was not started: another one is already named ${name}`);
    } else if ("type" in server && server.type === "http") {
      settings.push({
        ...base,
        name,
        transport: "http",
        url: server.url,
        headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
      });
    } else if ("command" in server) {
      settings.push({
        ...base,
        name,
        transport: "stdio",
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((e) => [e.name, e.value])),
      });
    } else {
      notices.push(
        `the editor's MCP server "${server.name}" was not started: Rienda speaks stdio and Streamable HTTP to MCP servers, not SSE`,
      );
    }
  }
  return { settings, notices };
}
