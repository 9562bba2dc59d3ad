/**
 * The MCP servers of one command: started together (each with its own
 * startup timeout), their tools, and one close for all of them.
 */
import type { McpServerSettings } from "../config/index.ts";
import { RiendaError } from "../errors.ts";
import type { Tool } from "../tools/index.ts";
import { McpConnection, type ConnectionOptions } from "./connection.ts";
import { toolsOfConnection } from "./mcp-tools.ts";

/** Started servers. */
export interface McpServers {
  /** In the order asked for. */
  readonly connections: readonly McpConnection[];
  /** The tools of a server that started (empty for one that did not), as it lists them now. */
  toolsOf(server: string): Tool[];
  /** Changes whenever a server's tool list does (it said its tools changed and was listed again). */
  version(): number;
  /** Names of tools left out because their names collide. */
  readonly notices: readonly string[];
  /** Ends every connection and server process. */
  close(): Promise<void>;
}

/**
 * Starts `servers` in parallel. With `requireAll` a failure of any of them
 * closes the others and throws one RiendaError naming every failed server;
 * without it the failures stay on their connections (`state`, `failure`).
 */
export async function startMcpServers(
  servers: readonly McpServerSettings[],
  options: ConnectionOptions & { requireAll: boolean },
): Promise<McpServers> {
  const connections = servers.map((settings) => new McpConnection(settings, options));
  const outcomes = await Promise.allSettled(connections.map((c) => c.start()));
  const failures = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
  const started = new Map<string, { version: number; tools: Tool[]; notices: string[] }>();
  const current = (c: McpConnection) => {
    let known = started.get(c.name);
    if (!known || known.version !== c.toolsVersion) {
      known = { version: c.toolsVersion, ...toolsOfConnection(c) };
      started.set(c.name, known);
    }
    return known;
  };
  const ready = connections.filter((c) => c.state === "ready");
  const notices = ready.flatMap((c) => current(c).notices);
  const result: McpServers = {
    connections,
    toolsOf: (server) => {
      const c = ready.find((r) => r.name === server);
      return c ? current(c).tools : [];
    },
    version: () => ready.reduce((n, c) => n + c.toolsVersion, 0),
    notices,
    close: async () => void (await Promise.all(connections.map((c) => c.close()))),
  };
  if (options.requireAll && failures.length > 0) {
    await result.close();
    const messages = failures.map((f) => (f instanceof Error ? f.message : String(f)));
    throw new RiendaError("extension", messages.join("\n"));
  }
  return result;
}
