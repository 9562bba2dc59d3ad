/**
 * MCP servers a client passes with a session (an ACP editor's context
 * servers, docs/acp.md "MCP servers"): started as config.yaml's are, every
 * tool they list offered to the agent (`name__*`). A name config.yaml
 * already uses stays config.yaml's, and a notice says the client's was left out.
 */
import type { Agent } from "../agents/index.ts";
import type { McpServerSettings } from "../config/index.ts";

/** The servers of a run (config.yaml's, then the client's) and the agent offered the client's tools. */
export function withClientServers(
  configured: ReadonlyMap<string, McpServerSettings>,
  agent: Agent,
  client: readonly McpServerSettings[] | undefined,
): { servers: ReadonlyMap<string, McpServerSettings>; agent: Agent; notices: string[] } {
  if (!client || client.length === 0) return { servers: configured, agent, notices: [] };
  const servers = new Map(configured);
  const added: string[] = [];
  const notices: string[] = [];
  for (const server of client) {
    if (servers.has(server.name)) {
      notices.push(
        `the client's MCP server "${server.name}" was not started: config.yaml declares a server of that name, which is used instead`,
      );
      continue;
    }
    servers.set(server.name, server);
    added.push(`${server.name}__*`);
  }
  return { servers, agent: added.length > 0 ? { ...agent, tools: [...agent.tools, ...added] } : agent, notices };
}
