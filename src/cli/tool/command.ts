/**
 * `rienda tool list` and `rienda tool run NAME --args JSON [-C DIR] [-y]`:
 * the tools without a model. `run` prints only the result text on stdout;
 * exit 0, 1 when the result is an error or the request is refused, 130 when
 * interrupted by SIGINT, SIGTERM, SIGHUP or Ctrl-C at a question (the
 * worker and its processes are ended first).
 */
import { defineCommand } from "../shared/command.ts";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { LoadedConfig } from "../../config/index.ts";
import { RiendaError } from "../../errors.ts";
import {
  brokenExtension,
  discoverTools,
  missingExtensionError,
  type ExtensionDiagnostic,
} from "../../extensions/index.ts";
import { createRuntime, type Runtime } from "../../runtime/index.ts";
import { createToolRunner, type ToolResult } from "../../tools/index.ts";
import { createTerminalFrontEnd } from "../../ui/index.ts";
import { agentlessContext } from "../shared/agentless-context.ts";
import { currentDirectory, resolveWorkdir } from "../shared/resolve-workdir.ts";
import { homeDir } from "../shared/home-dir.ts";
import { exitWhenFlushed, refuseClosedStdout } from "../shared/exit.ts";
import { interrupts, type Interrupts } from "../shared/interrupts.ts";
import { untilInterrupted } from "../../abort-race.ts";
import { mcpListing, mcpServerOf, runMcpTool } from "./tool-mcp.ts";
import { readOptionalConfig } from "../shared/optional-config.ts";
import { stderrForPeople, stdoutForPeople } from "../shared/for-people.ts";

// --config as everywhere (contract §1: --config PATH > RIENDA_CONFIG > ~/.rienda/config.yaml).
const configArg = { type: "string", description: "Path of config.yaml" } as const;

const listArgs = { config: configArg } as const;

const runArgs = {
  name: { type: "positional", required: false, description: "The tool to run" },
  args: { type: "string", description: "Arguments as a JSON object (default {})" },
  workdir: { type: "string", alias: "C", description: "Workspace directory (default: the current one)" },
  "auto-approve": { type: "boolean", alias: "y", description: "Answer yes to every ctx.confirm" },
  config: configArg,
} as const;

const list = defineCommand({
  meta: { name: "list", description: "List every available tool, its description and its source." },
  args: listArgs,
  async run(line) {
    const { values: listed } = line;
    const runtime = createRuntime();
    try {
      const catalog = await discoverTools({ riendaDir: riendaDir(), runtime, runner: createToolRunner() });
      printDiagnostics(catalog.diagnostics);
      const lines: string[] = [];
      for (const tool of catalog.tools) {
        lines.push(tool.builtIn ? `${tool.name} (built-in)` : tool.name);
        lines.push(`    ${tool.description.trim().split("\n")[0]}`);
        lines.push(`    source: ${tool.source}`);
      }
      let config: ReturnType<typeof readOptionalConfig>;
      try {
        config = readOptionalConfig(homeDir(), listed.config);
      } catch (error) {
        stderrForPeople().write(`MCP servers not listed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      if (config && config.mcpServers.size > 0) lines.push(...(await mcpListing(config, currentDirectory())));
      // Descriptions come from modules and MCP servers.
      stdoutForPeople().write(lines.length > 0 ? `${lines.join("\n")}\n` : "");
    } finally {
      await runtime.close();
    }
  },
});

const run = defineCommand({
  meta: { name: "run", description: "Invoke one tool once, without a model, and print its result." },
  args: runArgs,
  async run(line) {
    const { values: args, positionals } = line;
    const name = positionals[0];
    if (!name) throw new RiendaError("usage", "tool run: name the tool to run (see rienda tool list)");
    const rawArguments = args.args ?? "{}";
    let decoded: unknown;
    try {
      decoded = JSON.parse(rawArguments);
    } catch (error) {
      throw new RiendaError(
        "usage",
        `tool run: --args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (decoded === null || typeof decoded !== "object" || Array.isArray(decoded)) {
      throw new RiendaError("usage", "tool run: --args must be a JSON object");
    }
    const workdir = resolveWorkdir(args.workdir);
    // A result nobody can read: the tool is not run (its side effects would be all that is left).
    if (refuseClosedStdout()) return exitWhenFlushed(interrupts().exitCode);
    const home = homeDir();
    const autoApprove = Boolean(args["auto-approve"]);
    if (name.includes("__")) {
      const config = readOptionalConfig(home, args.config);
      const server = mcpServerOf(name, config);
      if (config && server) {
        const watcher = interrupts();
        // An interrupt cancels the call (the server gets notifications/cancelled); the server ends with Rienda.
        const data = agentlessContext(workdir, randomUUID(), [name], config.document, join(home, ".rienda"));
        const code = await printResult(
          runMcpTool({
            name,
            server,
            config,
            data,
            args: decoded as Record<string, unknown>,
            autoApprove,
            signal: watcher.signal,
          }),
          watcher,
        );
        await exitWhenFlushed(code);
        return;
      }
      // Not an MCP tool: the config just read serves as ctx.config, rather than being read again.
      return runJavaScriptTool(name, decoded, workdir, home, autoApprove, () => config);
    }
    return runJavaScriptTool(name, decoded, workdir, home, autoApprove, () => readOptionalConfig(home, args.config));
  },
});

/** Runs the user tool (or `shell`) `name` once in a fresh worker, prints its result and exits. */
async function runJavaScriptTool(
  name: string,
  decoded: object,
  workdir: string,
  home: string,
  autoApprove: boolean,
  readConfig: () => LoadedConfig | undefined,
): Promise<void> {
  const runtime = createRuntime();
  const watcher = interrupts();
  // An interrupt ends the worker and kills its process groups at once.
  const stopOnInterrupt = watcher.listen(() => runtime.interrupt());
  let code: number;
  try {
    code = await printResult(
      untilInterrupted(runOnce(name, decoded, workdir, home, runtime, autoApprove, readConfig), watcher.signal),
      watcher,
    );
  } finally {
    stopOnInterrupt();
    if (!watcher.interrupted) await runtime.close();
  }
  await exitWhenFlushed(code);
}

/** Finds the tool and runs it once. */
async function runOnce(
  name: string,
  decoded: object,
  workdir: string,
  home: string,
  runtime: Runtime,
  autoApprove: boolean,
  readConfig: () => LoadedConfig | undefined,
): Promise<ToolResult> {
  const watcher = interrupts();
  const runner = createToolRunner();
  // The module loads in a worker meanwhile: read the config and load the
  // argument validator on this thread in the meantime.
  const discovering = discoverTools({ riendaDir: join(home, ".rienda"), runtime, runner, names: [name] });
  // A config error below ends the command before this is awaited.
  discovering.catch(() => undefined);
  runner.prepare();
  // ctx.config: the config document when there is a config file; none is needed to run a tool.
  const configDocument = readConfig()?.document ?? {};
  const catalog = await discovering;
  printDiagnostics(catalog.diagnostics);
  const tool = catalog.tools.find((t) => t.name === name);
  // Unknown (not merely broken): every installed tool is looked at, so the list names the broken ones apart.
  if (!tool)
    throw missingExtensionError(
      "tool",
      name,
      brokenExtension("tool", name, catalog)
        ? catalog
        : await discoverTools({ riendaDir: join(home, ".rienda"), runtime, runner }),
    );
  // In a terminal (stdout and stderr both on it) command output is not echoed: the result usually carries it.
  const oneTerminal = Boolean(process.stdout.isTTY && process.stderr.isTTY);
  const frontEnd = createTerminalFrontEnd({
    autoApprove,
    signal: watcher.signal,
    onInterrupt: () => watcher.interrupt("ctrl-c"),
    echoProcessOutput: !oneTerminal,
  });
  return runner.runTool(tool, decoded, {
    data: agentlessContext(workdir, randomUUID(), [name], configDocument, join(home, ".rienda")),
    frontEnd,
    signal: watcher.signal,
  });
}

/**
 * Prints the result text on stdout and answers the exit status: 0, 1 for
 * an error result, the interrupt's own once interrupted (with a line on
 * stderr unless stdout is gone).
 */
async function printResult(running: Promise<ToolResult>, watcher: Interrupts): Promise<number> {
  try {
    const result = await running;
    if (watcher.interrupted) throw new RiendaError("interrupted", "the tool run was interrupted");
    // Exact when piped (a script's data); on a terminal its control characters are shown, not acted on.
    if (result.text !== "") stdoutForPeople().write(result.text.endsWith("\n") ? result.text : `${result.text}\n`);
    return result.isError ? 1 : 0;
  } catch (error) {
    if (!watcher.interrupted) throw error;
    if (watcher.cause !== "stdout-closed") process.stderr.write("rienda: the tool run was interrupted\n");
    return watcher.exitCode;
  }
}

/** `rienda tool`: list or run the tools. */
export default defineCommand({
  meta: { name: "tool", description: "List the tools, or run one without a model." },
  subCommands: { list, run },
});

function riendaDir(): string {
  return join(homeDir(), ".rienda");
}

function printDiagnostics(diagnostics: readonly ExtensionDiagnostic[]): void {
  for (const d of diagnostics) stderrForPeople().write(`${d.message}\n`);
}
