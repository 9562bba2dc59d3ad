/**
 * What a command of the command line is: its name and description (for
 * --help), its flags and words, its subcommands, and what it does with the
 * line the dispatcher (cli/index.ts) read for it. A command never reads
 * argv itself: it gets the one reading of strict-args.ts.
 */
import type { ArgsDef, CommandLine } from "./strict-args.ts";

/** A command loaded only when it runs (or when --help lists it). */
export type LazyCommand = () => Promise<Command<any>>;

export interface Command<A extends ArgsDef = ArgsDef> {
  meta: { name: string; description: string };
  /** Its flags and words, read strictly; what --help lists. */
  args?: A;
  /**
   * Its subcommands. Without a `run` of its own (`rienda tool`), one must be
   * named; with one (`rienda sessions`, `rienda auth`), the command runs
   * when none is.
   */
  subCommands?: Record<string, Command<any> | LazyCommand>;
  /**
   * With subcommands and a `run`: a word that names no subcommand is
   * refused as an unknown subcommand ("subcommand"), or left to `run`'s
   * strict reading, which refuses it as an unexpected argument ("argument").
   */
  otherWords?: "subcommand" | "argument";
  /**
   * The command answers a refused command line itself, in its own output
   * (`run --json` ends with run_end, `rpc` with a fatal line): `run` is
   * called with `line.problem` set and must report it. Otherwise the
   * dispatcher reports the problem and `run` is never called.
   */
  reportsUsageErrors?: true;
  run?(line: CommandLine<A>): Promise<void> | void;
}

/** A command, its `args` typed from the object literal. */
export function defineCommand<const A extends ArgsDef>(command: Command<A>): Command<A> {
  return command;
}

/** A subcommand, loaded when it is lazy. */
export async function loadCommand(entry: Command<any> | LazyCommand): Promise<Command<any>> {
  return typeof entry === "function" ? entry() : entry;
}
