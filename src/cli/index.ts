/**
 * The command line: one citty command per file, dispatched from here.
 * Owns turning failures into `rienda: <message>` and an exit code, and ends
 * the process only once stdout and stderr are flushed (exit.ts); nothing
 * below the CLI ever calls process.exit or prints a stack.
 */
import { defineCommand, renderUsage, runCommand, type CommandDef } from "citty";
import { RiendaError, userMessage } from "../errors.ts";
import { didYouMean } from "../values.ts";
import { VERSION } from "../version.ts";
import { chatCommand, commands } from "./commands.ts";
import { exitWhenFlushed, stdoutClosed, trackOutput } from "./shared/exit.ts";
import { releaseSignals, STDOUT_CLOSED_EXIT } from "./shared/interrupts.ts";
import { stderrForPeople } from "./shared/for-people.ts";

const root = defineCommand({
  meta: { name: "rienda", version: VERSION, description: "A scriptable LLM agent harness." },
  subCommands: commands,
});

/**
 * The commands that watch interrupts themselves (they take `interrupts()`
 * and end with 130, or the chat's own statuses); every other command gets
 * the signals' default action back before it runs. The bare `rienda` (the
 * chat) watches too.
 */
const WATCHING: ReadonlySet<string> = new Set(["run", "tool run", "mcp serve", "rpc", "acp"]);

/** Runs the command line and ends the process once its output has left; never throws. */
export async function runCli(argv: string[]): Promise<void> {
  trackOutput();
  try {
    if (asksForHelp(argv)) {
      releaseSignals();
      const [cmd, path] = await resolveCommand(root, argv, []);
      // A bare `rienda` is the chat: the root's usage lists the chat's flags too.
      const shown = cmd === root ? { ...root, args: (await chatCommand()).args } : cmd;
      // Usage lines name the whole command: "rienda tool run", not "tool run".
      const parent = path.length > 0 ? defineCommand({ meta: { name: ["rienda", ...path.slice(0, -1)].join(" "), version: VERSION } }) : undefined;
      const usage = await renderUsage(shown, parent);
      process.stdout.write(`${process.stdout.isTTY ? usage : stripAnsi(usage)}\n`);
      return;
    }
    const at = firstPositionalIndex(argv);
    const first = at === undefined ? undefined : argv[at];
    if (first !== undefined && !(first in commands)) {
      releaseSignals();
      stderrForPeople().write(`rienda: ${unknownCommandMessage(first, at!)}\n`);
      process.exitCode = 1;
      return;
    }
    if (first === undefined) {
      await runCommand(await chatCommand(), { rawArgs: argv });
      return;
    }
    // Flags written before the command (`rienda --config X run ...`) are the command's own:
    // the command reads them, strictly, as if written after its name.
    const rest = argv.slice(at! + 1);
    const subAt = await checkSubcommand(first, rest);
    if (!WATCHING.has(subAt >= 0 ? `${first} ${rest[subAt]}` : first)) releaseSignals();
    const named = subAt + 1;
    const ordered = [first, ...rest.slice(0, named), ...argv.slice(0, at), ...rest.slice(named)];
    await runCommand(root, { rawArgs: ordered });
  } catch (error) {
    reportFailure(error);
  }
  // Commands that run work end the process themselves; the others end here.
  await exitWhenFlushed(stdoutClosed() ? STDOUT_CLOSED_EXIT : Number(process.exitCode ?? 0));
}

/**
 * `unknown command "x"`, with the command it was probably meant to be, or,
 * when flags came first (`rienda -a coder fix the tests`), how to give a prompt:
 * the chat takes no words, and a script meant `rienda run`.
 */
function unknownCommandMessage(word: string, at: number): string {
  const hint = didYouMean(word, Object.keys(commands));
  if (hint === "" && at > 0) return `unknown command "${word}" (rienda with no command opens the chat, which takes no words; for one run with a prompt: rienda run -a AGENT -p "your prompt")`;
  return `unknown command "${word}" (${hint}see rienda --help)`;
}

/** Prints a failure the way every command does and sets exit code 1. */
export function reportFailure(error: unknown): void {
  // One line per problem, each prefixed, as `rienda run` prints them (config errors list several).
  // A message may quote what a tool, a server or a file said: shown, never acted on by the terminal.
  stderrForPeople().write(`${userMessage(error).split("\n").map((line) => `rienda: ${line}`).join("\n")}\n`);
  process.exitCode = 1;
}

/** `--help` or `-h` among the flags (not after `--`, where `-p -- -h` is a prompt). */
function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((token) => token === "--help" || token === "-h");
}

/**
 * A command made of sub-commands (`rienda tool`) needs one of them, by its exact name.
 * Returns where in `rest` the sub-command is named, -1 for a command without any.
 */
async function checkSubcommand(name: string, rest: string[]): Promise<number> {
  const command = (await commands[name]!()) as CommandDef;
  const subs = await resolve(command.subCommands);
  if (!subs) return -1;
  const names = Object.keys(subs);
  const listed = names.length === 2 ? names.join(" or ") : names.join(", ");
  const sub = rest.find((token) => !token.startsWith("-"));
  if (sub === undefined) throw new RiendaError("usage", `${name}: name a subcommand: ${listed} (see rienda ${name} --help)`);
  if (!(sub in subs)) throw new RiendaError("usage", `${name}: unknown subcommand "${sub}" (${listed}; see rienda ${name} --help)`);
  return rest.indexOf(sub);
}

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

/** Where the first argument that is not a flag (or a flag's value) is; the chat's value flags are skipped. */
function firstPositionalIndex(argv: string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") return i + 1 < argv.length ? i + 1 : undefined;
    if (!token.startsWith("-")) return i;
    if (/^-(a|s|m|C)$|^--(agent|session|model|workdir|config|at|thinking)$/.test(token)) i++;
  }
  return undefined;
}

/** The command `argv` names, with the names leading to it (["tool", "run"]). */
async function resolveCommand(cmd: CommandDef, argv: string[], path: string[]): Promise<[CommandDef, string[]]> {
  const subs = await resolve(cmd.subCommands);
  const name = argv.find((a) => !a.startsWith("-"));
  if (subs && name !== undefined && name in subs) {
    const sub = await resolve(subs[name]);
    return resolveCommand(sub as CommandDef, argv.slice(argv.indexOf(name) + 1), [...path, name]);
  }
  return [cmd, path];
}

async function resolve<T>(value: T | Promise<T> | (() => T | Promise<T>)): Promise<T> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value;
}
