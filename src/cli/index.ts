/**
 * The command line: found (locate-command.ts), read once and strictly
 * (shared/strict-args.ts) and dispatched from here; every command is a
 * folder of its own (commands.ts). Owns turning failures into
 * `rienda: <message>` and an exit code, and ends the process only once
 * stdout and stderr are flushed (shared/exit.ts); nothing below the CLI
 * ever calls process.exit or prints a stack.
 */
import { userMessage } from "../errors.ts";
import { root } from "./commands.ts";
import { locateCommand } from "./locate-command.ts";
import { exitWhenFlushed, stdoutClosed, trackOutput } from "./shared/exit.ts";
import { stderrForPeople } from "./shared/for-people.ts";
import { releaseSignals, STDOUT_CLOSED_EXIT } from "./shared/interrupts.ts";
import { readCommandLine } from "./shared/strict-args.ts";
import { renderUsage, usageInColor } from "./usage.ts";

/**
 * The commands that watch interrupts themselves (they take `interrupts()`
 * and end with 130, or the chat's own statuses); every other command gets
 * the signals' default action back before it runs. The bare `rienda` (the
 * chat) watches too.
 */
const WATCHING: ReadonlySet<string> = new Set(["", "run", "tool run", "mcp serve", "rpc", "acp"]);

/** Runs the command line and ends the process once its output has left; never throws. */
export async function runCli(argv: string[]): Promise<void> {
  trackOutput();
  try {
    if (asksForHelp(argv)) {
      releaseSignals();
      const { command, path } = await locateCommand(root, argv, true);
      process.stdout.write(`${await renderUsage(command, path, usageInColor(process.stdout, process.env))}\n`);
    } else {
      await dispatch(argv);
    }
  } catch (error) {
    reportFailure(error);
  }
  // Commands that run work end the process themselves; the others end here.
  await exitWhenFlushed(stdoutClosed() ? STDOUT_CLOSED_EXIT : Number(process.exitCode ?? 0));
}

/** Finds the command, reads its line once, and runs it with what was read. */
async function dispatch(argv: readonly string[]): Promise<void> {
  const located = await locateCommand(root, argv, false).catch((error: unknown) => {
    releaseSignals();
    throw error;
  });
  const { command, path, tokens } = located;
  if (!WATCHING.has(path.join(" "))) releaseSignals();
  const line = readCommandLine(tokens, command.args ?? {}, ["rienda", ...path].join(" "));
  if (line.problem && !command.reportsUsageErrors) throw line.problem;
  await command.run?.(line);
}

/** Prints a failure the way every command does and sets exit code 1. */
function reportFailure(error: unknown): void {
  // One line per problem, each prefixed, as `rienda run` prints them (config errors list several).
  // A message may quote what a tool, a server or a file said: shown, never acted on by the terminal.
  stderrForPeople().write(
    `${userMessage(error)
      .split("\n")
      .map((line) => `rienda: ${line}`)
      .join("\n")}\n`,
  );
  process.exitCode = 1;
}

/** `--help` or `-h` among the flags (not after `--`, where `-p -- -h` is a prompt). */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((token) => token === "--help" || token === "-h");
}
