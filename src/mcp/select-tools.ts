/**
 * Which entries of an agent's `tools:` belong to MCP servers. An entry is an
 * MCP tool when the part before its first `__` is the name of a server in
 * config.yaml; everything else is a JavaScript tool (or `shell`).
 */
import { RiendaError } from "../errors.ts";
import type { Tool } from "../tools/index.ts";
import { isServerWildcard, serverPart } from "./tool-name.ts";

/** The servers to start and the names left for user tools. */
export interface ToolNameSplit {
  /** Names that are not MCP tools, in order. */
  userTools: string[];
  /** Servers named by at least one entry, in order of first mention. */
  servers: string[];
}

/**
 * Splits `names`; throws a RiendaError for `x__*` when `x` is not a
 * configured server (such a name can never be a user tool).
 */
export function splitToolNames(
  names: readonly string[],
  configured: ReadonlySet<string>,
  configPath: string,
): ToolNameSplit {
  const userTools: string[] = [];
  const servers: string[] = [];
  for (const name of names) {
    const server = serverPart(name);
    if (server !== undefined && configured.has(server)) {
      if (!servers.includes(server)) servers.push(server);
    } else if (isServerWildcard(name)) {
      throw unknownServerError(name, server!, configured, configPath);
    } else {
      userTools.push(name);
    }
  }
  return { userTools, servers };
}

/** `name` is `server__*` (or `server__tool`) for a server config.yaml does not declare. */
export function unknownServerError(
  name: string,
  server: string,
  configured: ReadonlySet<string>,
  configPath: string,
): RiendaError {
  return new RiendaError(
    "extension",
    `unknown MCP server "${server}" in "${name}" (${serverList(configured, configPath)})`,
  );
}

/** "MCP servers in <file>: a, b", or that there are none. */
export function serverList(configured: ReadonlySet<string>, configPath: string): string {
  return configured.size > 0
    ? `MCP servers in ${configPath}: ${[...configured].join(", ")}`
    : `${configPath} declares no mcp_servers`;
}

/**
 * The tools of `names` in the agent's order, `server__*` expanded in place
 * and duplicates dropped, with every name that could not be resolved as an
 * error (all of them, not only the first). `user` answers a name that is
 * not an MCP tool; `mcpTools` lists the tools of a started server, and
 * undefined for one that did not start (its failure is reported once,
 * elsewhere, not again for each of its tools).
 */
export function resolveToolNames(
  names: readonly string[],
  configured: ReadonlySet<string>,
  user: (name: string) => Tool | RiendaError,
  mcpTools: (server: string) => readonly Tool[] | undefined,
): { tools: Tool[]; missing: RiendaError[] } {
  const picked = new Map<string, Tool>();
  const missing: RiendaError[] = [];
  const pick = (tool: Tool) => void (picked.has(tool.name) || picked.set(tool.name, tool));
  for (const name of names) {
    const server = serverPart(name);
    if (server === undefined || !configured.has(server)) {
      const tool = user(name);
      if (tool instanceof RiendaError) missing.push(tool);
      else pick(tool);
      continue;
    }
    const tools = mcpTools(server);
    if (tools === undefined) continue;
    if (isServerWildcard(name)) {
      tools.forEach(pick);
      continue;
    }
    const tool = tools.find((t) => t.name === name);
    if (tool) pick(tool);
    else missing.push(unlistedToolError(name, server, tools));
  }
  return { tools: [...picked.values()], missing };
}

/** `name` is not among the tools server `server` lists. */
export function unlistedToolError(name: string, server: string, tools: readonly Tool[]): RiendaError {
  const listed = tools.length > 0 ? tools.map((t) => t.name).join(", ") : "none";
  return new RiendaError(
    "extension",
    `unknown tool "${name}": MCP server "${server}" does not list it (its tools: ${listed})`,
  );
}
