/**
 * Which command a command line names (`rienda -C ../app tool run x`: `tool
 * run`), found with the same flag specs the line is then read with, so
 * that a flag's value is never taken for a command. What is left once the
 * command's words are taken out is the command's own line: flags written
 * before a command are read as if written after it.
 */
import { RiendaError } from "../errors.ts";
import { didYouMean } from "../values.ts";
import { loadCommand, type Command } from "./shared/command.ts";
import { flagTable, splitFlag, type ArgsDef } from "./shared/strict-args.ts";

/** The command named, the words that name it, and the rest of the line. */
export interface LocatedCommand {
  command: Command<any>;
  path: string[];
  tokens: string[];
}

/**
 * Walks from `root` down the words of `argv`. A name that is not a
 * command is refused, as is a command made of subcommands with none named;
 * `lenient` (for --help) stops at the last command named instead.
 */
export async function locateCommand(
  root: Command<any>,
  argv: readonly string[],
  lenient: boolean,
): Promise<LocatedCommand> {
  let command = root;
  const path: string[] = [];
  let tokens = [...argv];
  // Where the next command word may be: after the last one.
  let from = 0;
  while (command.subCommands) {
    const subs = command.subCommands;
    const found = firstWordAt(tokens.slice(from), command.args ?? {});
    const at = found === undefined ? undefined : from + found;
    const word = at === undefined ? undefined : tokens[at]!;
    const entry = word !== undefined && Object.hasOwn(subs, word) ? subs[word] : undefined;
    if (!entry) {
      if (lenient || (word === undefined && command.run) || (word !== undefined && command.otherWords === "argument"))
        break;
      throw notACommand(path, Object.keys(subs), word, at ?? 0);
    }
    command = await loadCommand(entry);
    path.push(word!);
    // The word leaves the line, with a `--` that set it apart (`rienda -- run`).
    const start = at! > from && tokens[at! - 1] === "--" ? at! - 1 : at!;
    tokens = [...tokens.slice(0, start), ...tokens.slice(at! + 1)];
    from = start;
  }
  return { command, path, tokens };
}

/**
 * Where the first word is that is neither a flag nor a flag's value (by
 * `args`, whose value flags take the next token); after a lone `--`, the
 * word right after it.
 */
function firstWordAt(tokens: readonly string[], args: ArgsDef): number | undefined {
  const flags = flagTable(args);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === "--") return i + 1 < tokens.length ? i + 1 : undefined;
    if (!token.startsWith("-")) return i;
    const [flag, inline] = splitFlag(token);
    const spec = flags.get(flag);
    if (spec && !spec.boolean && inline === undefined) i += tokens[i + 1] === "--" ? 2 : 1;
  }
  return undefined;
}

/**
 * `unknown command "x"` with the command it was probably meant to be, or,
 * when flags came first (`rienda -a coder fix the tests`), how to give a
 * prompt: the chat takes no words, and a script meant `rienda run`. Below
 * the top: `tool: unknown subcommand "x"`, or `tool: name a subcommand`.
 */
function notACommand(
  path: readonly string[],
  names: readonly string[],
  word: string | undefined,
  at: number,
): RiendaError {
  const hint = word === undefined ? "" : didYouMean(word, names);
  if (path.length === 0) {
    if (hint === "" && at > 0)
      return new RiendaError(
        "usage",
        `unknown command "${word}" (rienda with no command opens the chat, which takes no words; for one run with a prompt: rienda run -a AGENT -p "your prompt")`,
      );
    return new RiendaError("usage", `unknown command "${word}" (${hint}see rienda --help)`);
  }
  const name = path.join(" ");
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names.join("");
  if (word === undefined)
    return new RiendaError("usage", `${name}: name a subcommand: ${listed} (see rienda ${name} --help)`);
  return new RiendaError(
    "usage",
    `${name}: unknown subcommand "${word}" (${hint}${listed}; see rienda ${name} --help)`,
  );
}
