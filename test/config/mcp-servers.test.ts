import { describe, expect, test } from "bun:test";
import { DEFAULT_MCP_STARTUP_TIMEOUT_MS } from "../../src/config/index.ts";
import { MINIMAL } from "./example-config.ts";
import { FILE, HOME, linesOf, parse } from "./parse-helpers.ts";

describe("mcp_servers", () => {
  test("absent or empty: no servers", () => {
    expect(parse(MINIMAL).mcpServers.size).toBe(0);
    expect(parse(`${MINIMAL}mcp_servers:\n`).mcpServers.size).toBe(0);
  });

  test("a stdio and an HTTP server, as docs/mcp.md writes them, with ${ENV} expanded", () => {
    const config = parse(
      `${MINIMAL}mcp_servers:
  files:
    command: node
    args: ["/opt/mcp/filesystem/dist/index.js", "/srv/data", 3]
    env: { LOG_LEVEL: "warn", TOKEN: "\${FILES_TOKEN}" }
    cwd: /srv
    startup_timeout_ms: 10000
  search:
    url: http://127.0.0.1:8931/mcp
    headers: { Authorization: "Bearer \${SEARCH_TOKEN}" }
`,
      { FILES_TOKEN: "ft", SEARCH_TOKEN: "secret" },
    );
    expect([...config.mcpServers.keys()]).toEqual(["files", "search"]);
    expect(config.mcpServers.get("files")).toEqual({
      name: "files",
      transport: "stdio",
      command: "node",
      args: ["/opt/mcp/filesystem/dist/index.js", "/srv/data", "3"],
      env: { LOG_LEVEL: "warn", TOKEN: "ft" },
      cwd: "/srv",
      startupTimeoutMs: 10000,
      unset: [],
      expanded: [{ path: "mcp_servers.files.env.TOKEN", variable: "FILES_TOKEN", value: "ft" }],
    });
    expect(config.mcpServers.get("search")).toEqual({
      name: "search",
      transport: "http",
      url: "http://127.0.0.1:8931/mcp",
      headers: { Authorization: "Bearer secret" },
      startupTimeoutMs: DEFAULT_MCP_STARTUP_TIMEOUT_MS,
      unset: [],
      expanded: [{ path: "mcp_servers.search.headers.Authorization", variable: "SEARCH_TOKEN", value: "secret" }],
    });
  });

  test("a relative or ~ cwd resolves like other paths of the file", () => {
    const config = parse(`${MINIMAL}mcp_servers:\n  a: { command: x, cwd: ~/srv }\n  b: { command: x, cwd: data }\n`);
    expect(config.mcpServers.get("a")).toMatchObject({ cwd: `${HOME}/srv` });
    expect(config.mcpServers.get("b")).toMatchObject({ cwd: `${HOME}/.rienda/data` });
  });

  test("an unset variable is kept for the moment the server is used", () => {
    const config = parse(
      `${MINIMAL}mcp_servers:\n  search:\n    url: http://h/mcp\n    headers: { Authorization: "Bearer \${NOPE}" }\n`,
      {},
    );
    expect(config.mcpServers.get("search")?.unset).toEqual([
      { path: "mcp_servers.search.headers.Authorization", variable: "NOPE" },
    ]);
  });

  test("exactly one of command and url", () => {
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, url: "http://h/" }\n`)).toEqual([
      `${FILE}: mcp_servers.a: set either "command" or "url", not both`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { args: [x] }\n`)).toEqual([
      `${FILE}: mcp_servers.a: needs either "command" (a server started as a process) or "url" (a Streamable HTTP server)`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a:\n`)).toEqual([
      `${FILE}: mcp_servers.a: needs either "command" (a server started as a process) or "url" (a Streamable HTTP server)`,
    ]);
  });

  test("unknown keys and keys of the other transport are errors naming file and key", () => {
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, argz: [] }\n`)).toEqual([
      `${FILE}: mcp_servers.a.argz: unknown key (did you mean "args"? known keys: command, args, env, cwd, url, headers, startup_timeout_ms)`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, headers: { A: b } }\n`)).toEqual([
      `${FILE}: mcp_servers.a.headers: is only used with "url" (a Streamable HTTP server)`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { url: "http://h/", env: { A: b } }\n`)).toEqual([
      `${FILE}: mcp_servers.a.env: is only used with "command" (a server started as a process)`,
    ]);
  });

  test("wrong types and values", () => {
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, args: x }\n`)).toEqual([
      `${FILE}: mcp_servers.a.args: must be a list of strings, not a string ("x")`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, args: [[1]] }\n`)).toEqual([
      `${FILE}: mcp_servers.a.args[0]: must be a string, not a list`,
    ]);
    expect(
      parse(`${MINIMAL}mcp_servers:\n  a: { command: x, args: [1.10, 1_000, 0x1F, yes, 3] }\n`).mcpServers.get("a"),
    ).toMatchObject({ args: ["1.10", "1_000", "0x1F", "yes", "3"] });
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, startup_timeout_ms: 0 }\n`)).toEqual([
      `${FILE}: mcp_servers.a.startup_timeout_ms: must be a positive integer`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { url: "ftp://h/" }\n`)).toEqual([
      `${FILE}: mcp_servers.a.url: must be an http:// or https:// URL (got "ftp://h/")`,
    ]);
    // What a variable put into the URL is not quoted back.
    expect(
      linesOf(`${MINIMAL}mcp_servers:\n  a: { url: "ftp://me:\${MCP_PASSWORD}@h/" }\n`, {
        MCP_PASSWORD: "pw-secret-1",
      }),
    ).toEqual([`${FILE}: mcp_servers.a.url: must be an http:// or https:// URL (got "ftp://me:***@h/")`]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { command: x, env: { "1A": b } }\n`)).toEqual([
      `${FILE}: mcp_servers.a.env.1A: "1A" is not a valid environment variable name`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  a: { url: "http://h/", headers: { "A B": c } }\n`)).toEqual([
      `${FILE}: mcp_servers.a.headers."A B": "A B" is not a valid HTTP header name`,
    ]);
    expect(linesOf(`${MINIMAL}mcp_servers: [a]\n`)).toEqual([
      `${FILE}: mcp_servers: must be a mapping (key: value pairs), not a list`,
    ]);
  });

  test("a server name must work as the prefix of its tools' names", () => {
    for (const bad of ["a__b", "_a", "a_", "a.b"]) {
      expect(linesOf(`${MINIMAL}mcp_servers:\n  "${bad}": { command: x }\n`)[0]).toContain(
        `is not a valid server name`,
      );
    }
    expect(parse(`${MINIMAL}mcp_servers:\n  my_files-2: { command: x }\n`).mcpServers.has("my_files-2")).toBe(true);
    expect(linesOf(`${MINIMAL}mcp_servers:\n  agent: { command: x }\n`)[0]).toContain(
      `"agent" cannot name an MCP server: tools named agent__<id> are an agent's subagents`,
    );
  });
});
