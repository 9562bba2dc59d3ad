/**
 * MCP, both ways: MCP servers' tools as Rienda tools (stdio and Streamable
 * HTTP, named `server__tool`), and Rienda's tools served to MCP clients
 * (`rienda mcp serve`).
 *
 * Invariants: the SDK is loaded only when a server is started or served
 * (sdk.ts), never by importing this folder; every stdio server runs in its
 * own process group, ended when its connection closes and, at the latest,
 * when Rienda's process exits; a server's `env` and `headers` values never
 * appear in a message or result; served over HTTP, nothing is routed
 * before the bearer token is checked, and the token is never printed. Must not know about agents, sessions or
 * hooks: calls arrive as `Tool.execute` through the one tool runner.
 */
export { McpConnection, type ConnectionOptions, type ConnectionState } from "./connection.ts";
export type { McpToolInfo } from "./list-tools.ts";
export {
  resolveToolNames,
  serverList,
  splitToolNames,
  unknownServerError,
  unlistedToolError,
  type ToolNameSplit,
} from "./select-tools.ts";
export { startMcpServers, type McpServers } from "./servers.ts";
export { isServerWildcard, mcpToolName, serverPart } from "./tool-name.ts";
export { parseListenAddress } from "./listen-address.ts";
export { DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, parseIdleTimeout, parseMaxSessions } from "./http-limits.ts";
export { serveToken, TOKEN_VARIABLE, type ServeToken, type TokenSource } from "./serve-token.ts";
export type { HttpGuard, HttpServing } from "./serve.ts";
export type { ToolServerOptions } from "./tool-server.ts";

// Serving loads node:http and the SDK's server side: only `rienda mcp serve` pays for them.
export const serveStdio: typeof import("./serve.ts").serveStdio = async (...args) =>
  (await import("./serve.ts")).serveStdio(...args);
export const serveHttp: typeof import("./serve.ts").serveHttp = async (...args) =>
  (await import("./serve.ts")).serveHttp(...args);
