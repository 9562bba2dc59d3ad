/** Validation of the `mcp_servers:` block: one stdio or Streamable HTTP server per entry (docs/mcp.md). */
import { describeYamlValue as describe, hideSecrets } from "../values.ts";
import type { ConfigReader } from "./config-reader.ts";
import type { KeyPath } from "./key-path.ts";
import type { McpServerSettings } from "./types.ts";
import { isHttpUrl, readHeaders, resolveUserPath, type PathBase } from "./validate-provider.ts";

const SERVER_KEYS = ["command", "args", "env", "cwd", "url", "headers", "startup_timeout_ms"] as const;
const STDIO_ONLY = ["args", "env", "cwd"] as const;
const HTTP_ONLY = ["headers"] as const;

/** Long enough for a server started through `npx` that is already in the npm cache. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;

/**
 * A server name is the prefix of its tools' names (`name__tool`), so it must
 * survive in a tool name as written and must not contain the `__` separator.
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME = 32;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The servers of a valid block, in file order; problems go to `reader`. */
export function validateMcpServers(
  reader: ConfigReader,
  value: unknown,
  base: PathBase,
): Map<string, McpServerSettings> {
  const servers = new Map<string, McpServerSettings>();
  const written = reader.mapping(value, ["mcp_servers"]);
  if (!written) return servers;
  for (const [name, entry] of reader.entries(written, ["mcp_servers"])) {
    const server = validateServer(reader, name, entry, base);
    if (server) servers.set(name, server);
  }
  return servers;
}

function validateServer(
  reader: ConfigReader,
  name: string,
  value: unknown,
  base: PathBase,
): McpServerSettings | undefined {
  const path = ["mcp_servers", name];
  const before = reader.problems.length;
  if (!SERVER_NAME.test(name) || name.length > MAX_SERVER_NAME) {
    reader.problem(
      path,
      `"${name}" is not a valid server name (1 to ${MAX_SERVER_NAME} letters, digits, "-" or single "_" between them: its tools are named ${name}__<tool>)`,
    );
  }
  if (name === "agent") {
    reader.problem(
      path,
      `"agent" cannot name an MCP server: tools named agent__<id> are an agent's subagents (docs/subagents.md); choose another name`,
    );
  }
  if (value === null || value === undefined) {
    reader.problem(path, 'needs either "command" (a server started as a process) or "url" (a Streamable HTTP server)');
    return undefined;
  }
  const map = reader.mapping(value, path);
  if (!map) return undefined;
  reader.knownKeys(map, SERVER_KEYS, path);
  const command = reader.string(map, "command", path);
  const url = reader.string(map, "url", path)?.trim();
  const startupTimeoutMs = reader.positiveInteger(map, "startup_timeout_ms", path) ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS;
  const present = (key: string) => map[key] !== undefined && map[key] !== null;

  if (command !== undefined && url !== undefined) {
    reader.problem(path, 'set either "command" or "url", not both');
    return undefined;
  }
  if (command === undefined && url === undefined) {
    reader.problem(path, 'needs either "command" (a server started as a process) or "url" (a Streamable HTTP server)');
    return undefined;
  }
  if (command !== undefined) {
    for (const key of HTTP_ONLY)
      if (present(key)) reader.problem([...path, key], 'is only used with "url" (a Streamable HTTP server)');
    if (command.trim() === "" && reader.unsetUnder([...path, "command"]).length === 0)
      reader.problem([...path, "command"], "must not be empty");
    const args = readArgs(reader, map.args, [...path, "args"]);
    const env = readEnv(reader, map.env, [...path, "env"]);
    const cwdText = reader.string(map, "cwd", path)?.trim();
    if (reader.problems.length > before) return undefined;
    const server: McpServerSettings = {
      name,
      transport: "stdio",
      command,
      args,
      env,
      startupTimeoutMs,
      unset: reader.unsetUnder(path),
      expanded: reader.expandedUnder(path),
    };
    if (cwdText) server.cwd = resolveUserPath(cwdText, base);
    return server;
  }
  for (const key of STDIO_ONLY)
    if (present(key)) reader.problem([...path, key], 'is only used with "command" (a server started as a process)');
  const headers = readHeaders(reader, map, path);
  const at = [...path, "url"];
  // What `${NAME}` put into the URL is not quoted back: it may be a password or a key.
  const shown = hideSecrets(
    url!,
    reader.expandedUnder(at).map((e) => e.value),
  );
  if (reader.unsetUnder(at).length === 0 && !isHttpUrl(url!))
    reader.problem(at, `must be an http:// or https:// URL (got "${shown}")`);
  if (reader.problems.length > before) return undefined;
  return {
    name,
    transport: "http",
    url: url!,
    headers,
    startupTimeoutMs,
    unset: reader.unsetUnder(path),
    expanded: reader.expandedUnder(path),
  };
}

function readArgs(reader: ConfigReader, value: unknown, path: KeyPath): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) {
    reader.problem(path, `must be a list of strings, not ${describe(value)}`);
    return [];
  }
  const args: string[] = [];
  value.forEach((item, i) => {
    const text = reader.text(item, [...path, i]);
    if (text !== undefined) args.push(text);
  });
  return args;
}

function readEnv(reader: ConfigReader, value: unknown, path: KeyPath): Record<string, string> {
  const env: Record<string, string> = {};
  const map = reader.mapping(value, path);
  if (!map) return env;
  for (const name of Object.keys(map)) {
    const text = reader.string(map, name, path);
    if (!ENV_NAME.test(name)) reader.problem([...path, name], `"${name}" is not a valid environment variable name`);
    else if (text !== undefined && text.includes("\0"))
      reader.problem([...path, name], "must not contain a NUL character");
    else Object.defineProperty(env, name, { value: text ?? "", enumerable: true, writable: true, configurable: true });
  }
  return env;
}
