/**
 * `rienda mcp serve [--tools a,b] [--http 127.0.0.1:PORT [--token-file PATH]
 * [--idle-timeout 30m] [--max-sessions 32]] [-C DIR]`: the user's JavaScript
 * tools for any MCP client, over stdio or Streamable HTTP (bearer token
 * required). Every discovered tool by default; `shell` only when `--tools`
 * names it. Ends when the client closes stdin (stdio) or on SIGINT/SIGTERM,
 * exit 0.
 */
import { defineCommand } from "../shared/command.ts";
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { RiendaError } from "../../errors.ts";
import { discoverTools, missingExtensionError } from "../../extensions/index.ts";
import { durationText } from "../../limits/index.ts";
import {
  DEFAULT_IDLE_MS,
  DEFAULT_MAX_SESSIONS,
  parseIdleTimeout,
  parseListenAddress,
  parseMaxSessions,
  serveHttp,
  serveStdio,
  serveToken,
  TOKEN_VARIABLE,
  type ServeToken,
  type ToolServerOptions,
} from "../../mcp/index.ts";
import { createRuntime } from "../../runtime/index.ts";
import { createToolRunner, type Tool } from "../../tools/index.ts";
import { agentlessContext } from "../shared/agentless-context.ts";
import { exitWhenFlushed } from "../shared/exit.ts";
import { homeDir } from "../shared/home-dir.ts";
import { interrupts } from "../shared/interrupts.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { readOptionalConfig } from "../shared/optional-config.ts";
import { stderrForPeople } from "../shared/for-people.ts";

const serveArgs = {
  tools: {
    type: "string",
    description: "Comma-separated tools to serve (default: every tool of ~/.rienda/tools; shell only when named)",
  },
  http: {
    type: "string",
    valueHint: "HOST:PORT",
    description:
      "Serve Streamable HTTP on HOST:PORT (loopback only) instead of stdio; clients send Authorization: Bearer <token>",
  },
  "token-file": {
    type: "string",
    valueHint: "PATH",
    description: `With --http: the token file, made (mode 0600) when missing (default: ~/.rienda/mcp-token; ${TOKEN_VARIABLE} instead gives the token itself)`,
  },
  "idle-timeout": {
    type: "string",
    valueHint: "DURATION",
    description: `With --http: close a session idle this long (default: ${durationText(DEFAULT_IDLE_MS)}; e.g. 90s, 2h)`,
  },
  "max-sessions": {
    type: "string",
    valueHint: "N",
    description: `With --http: sessions open at once, more are refused (default: ${DEFAULT_MAX_SESSIONS})`,
  },
  workdir: { type: "string", alias: "C", description: "Workspace the tools work in (default: the current directory)" },
} as const;

const serve = defineCommand({
  meta: { name: "serve", description: "Serve your tools to MCP clients (stdio, or Streamable HTTP with --http)." },
  args: serveArgs,
  async run(line) {
    const { values } = line;
    const address = values.http !== undefined ? parseListenAddress(values.http) : undefined;
    for (const flag of ["token-file", "idle-timeout", "max-sessions"] as const) {
      if (values[flag] !== undefined && !address)
        throw new RiendaError(
          "usage",
          `mcp serve: --${flag} applies to --http only (stdio has one client, on the pipe it started Rienda with)`,
        );
    }
    const idleMs = values["idle-timeout"] !== undefined ? parseIdleTimeout(values["idle-timeout"]) : DEFAULT_IDLE_MS;
    const maxSessions =
      values["max-sessions"] !== undefined ? parseMaxSessions(values["max-sessions"]) : DEFAULT_MAX_SESSIONS;
    const workdir = resolveWorkdir(values.workdir);
    const home = homeDir();
    // Before any worker or command starts: the tools and what they run must not inherit the token.
    const token = address ? takeToken(values["token-file"], home) : undefined;
    const wanted = values.tools
      ?.split(",")
      .map((n) => n.trim())
      .filter((n) => n !== "");
    if (wanted && wanted.length === 0)
      throw new RiendaError("usage", "mcp serve: --tools names no tool (write --tools a,b)");
    const config = readOptionalConfig(home);
    const runtime = createRuntime();
    const runner = createToolRunner();
    const catalog = await discoverTools({
      riendaDir: join(home, ".rienda"),
      runtime,
      runner,
      ...(wanted ? { names: wanted } : {}),
    });
    for (const d of catalog.diagnostics) stderrForPeople().write(`${d.message}\n`);
    const tools = pickTools(catalog.tools, wanted, (name) => missingExtensionError("tool", name, catalog));
    runner.prepare();

    const serverSession = randomUUID();
    const names = tools.map((t) => t.name);
    const options: ToolServerOptions = {
      tools,
      runner,
      contextData: (sessionId) =>
        agentlessContext(workdir, sessionId ?? serverSession, names, config?.document ?? {}, join(home, ".rienda")),
    };
    const watcher = interrupts();
    // Calls in flight end with their workers and processes.
    const stopOnInterrupt = watcher.listen(() => runtime.interrupt());
    try {
      if (address && token) {
        const report = (line: string) => void process.stderr.write(`rienda: ${line}\n`);
        const serving = await serveHttp(options, address, { token: token.value, idleMs, maxSessions, report });
        report(
          `serving ${names.length} tool${names.length === 1 ? "" : "s"} (${names.join(", ") || "none"}) at ${serving.url}`,
        );
        report(`clients send "Authorization: Bearer <token>", ${whereTheTokenIs(token)}`);
        await new Promise((resolve) => watcher.signal.addEventListener("abort", resolve, { once: true }));
        await serving.close();
      } else {
        await serveStdio(options, watcher.signal);
      }
    } finally {
      stopOnInterrupt();
      await runtime.close();
    }
    await exitWhenFlushed(0);
  },
});

/** `rienda mcp`: Rienda as an MCP server. */
export default defineCommand({
  meta: { name: "mcp", description: "Serve your tools over the Model Context Protocol." },
  subCommands: { serve },
});

/** The token of --http, taken out of the environment so that nothing the tools start can read it. */
function takeToken(file: string | undefined, home: string): ServeToken {
  const variable = process.env[TOKEN_VARIABLE];
  delete process.env[TOKEN_VARIABLE];
  return serveToken({
    variable,
    file: resolve(file ?? join(home, ".rienda", "mcp-token")),
    fileGiven: file !== undefined,
  });
}

/** Where the token is, for stderr; never the token itself. */
function whereTheTokenIs(token: ServeToken): string {
  if (token.source.kind === "variable") return `the token of ${token.source.name}`;
  return `the token in ${token.source.path} (${token.source.created ? "made now, " : ""}readable only by you)`;
}

/** The named tools in the order given (every missing one reported), or every tool but `shell`. */
function pickTools(
  all: readonly Tool[],
  wanted: readonly string[] | undefined,
  missing: (name: string) => RiendaError,
): Tool[] {
  if (!wanted) return all.filter((t) => t.name !== "shell");
  const problems: string[] = [];
  const picked: Tool[] = [];
  for (const name of new Set(wanted)) {
    const tool = all.find((t) => t.name === name);
    if (tool) picked.push(tool);
    else problems.push(missing(name).message);
  }
  if (problems.length > 0) throw new RiendaError("extension", problems.map((p) => `mcp serve: ${p}`).join("\n"));
  return picked;
}
