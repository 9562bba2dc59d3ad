/**
 * How MCP tools are named to the model, the hooks and agents: `server__tool`,
 * with characters outside `[A-Za-z0-9_-]` replaced by `_` and the whole cut
 * to 64 characters (what every provider accepts as a function name).
 */

/** The separator between server and tool. */
export const MCP_SEPARATOR = "__";
const MAX_NAME = 64;

/** The name `tool` of `server` has in Rienda. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_SEPARATOR}${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME);
}

/** The server part of `name` when it has one (`files` of `files__read_file`), else undefined. */
export function serverPart(name: string): string | undefined {
  const at = name.indexOf(MCP_SEPARATOR);
  return at > 0 ? name.slice(0, at) : undefined;
}

/** Whether `name` is the `server__*` form. */
export function isServerWildcard(name: string): boolean {
  return name.endsWith(`${MCP_SEPARATOR}*`) && serverPart(name) !== undefined;
}
