/** Strict reading of one command's command line (flags, values, errors that say how to fix them): the only parser of argv. */
import { RiendaError } from "../../errors.ts";

/**
 * The command line of one command, read strictly: a script's typo or a
 * prompt without quotes must fail loudly instead of being guessed at.
 * Every command's line is read here, once, by the dispatcher (cli/index.ts),
 * which also finds the command's name with the same flag specs
 * (cli/locate-command.ts); `--help` is rendered from them (cli/usage.ts).
 *
 * - `--name value`, `--name=value`, `-n value` and `-n=value` set a value;
 *   the `=` forms take the rest of the token verbatim, so `--prompt=-x`
 *   gives "-x". After a value flag, `--` says "the next token is the value
 *   even though it starts with -": `-p -- -x` gives "-x".
 * - A value flag followed by nothing, or by a word that starts with `-` and
 *   holds no whitespace (it may be a flag), is an error that says how to
 *   give a value starting with `-`; `-p "- a list item"` is a value.
 * - `--flag` and `--no-flag` set booleans; a boolean takes no value.
 * - An empty value (`-s "$ID"` with ID unset) is an error, never read as
 *   "not given": it would start a new session, or run in the current
 *   directory, without a word. The prompt says so in its own words.
 * - A flag given twice, an unknown flag, and more words than the command
 *   takes are errors, except a flag declared `multiple: true` (`-f a -f b`),
 *   whose values are collected in order. A lone `--` ends the flags: what
 *   follows are words.
 */

/** A flag: `--name value` (string) or `--name`/`--no-name` (boolean). */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly alias?: string | readonly string[];
  readonly description?: string;
  /** Given more than once, its values are collected in order (`-f a -f b`). */
  readonly multiple?: true;
  /** What --help shows as the value (`--http=<HOST:PORT>`); the flag's name otherwise. */
  readonly valueHint?: string;
}

/** A word the command takes (`rienda tool run NAME`); never required: the command says what is missing. */
export interface WordSpec {
  readonly type: "positional";
  readonly required: false;
  readonly description?: string;
  /** Read (so that the command can refuse it in its own words) but not listed by --help. */
  readonly hidden?: true;
}

/** A command's flags and words, by name, in the order --help lists them. */
export type ArgsDef = Readonly<Record<string, FlagSpec | WordSpec>>;

/** The values read for a command's declared args. */
export type ArgValues<A extends ArgsDef> = {
  -readonly [K in keyof A]?: A[K] extends { type: "boolean" }
    ? boolean
    : A[K] extends { multiple: true }
      ? string[]
      : string;
};

/**
 * What was read: named values and the words (positionals), in order, and
 * the first problem met, if any. After a problem the rest is still read
 * (so that `rienda run --bogus --json` still answers in JSON), but the
 * values of a refused line decide nothing else.
 */
export interface CommandLine<A extends ArgsDef> {
  values: ArgValues<A>;
  positionals: string[];
  problem?: RiendaError;
}

/** Reads `rawArgs` strictly (readCommandLine) and throws its problem, if any. */
export function assertKnownFlags<A extends ArgsDef>(
  rawArgs: readonly string[],
  args: A,
  command: string,
): CommandLine<A> {
  const line = readCommandLine(rawArgs, args, command);
  if (line.problem) throw line.problem;
  return line;
}

/** Which flag names (aliases included) a command knows, and whether each is a boolean. */
export function flagTable(args: ArgsDef): Map<string, { key: string; boolean: boolean; multiple: boolean }> {
  const byFlag = new Map<string, { key: string; boolean: boolean; multiple: boolean }>();
  for (const [key, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const entry = { key, boolean: def.type === "boolean", multiple: def.multiple === true };
    for (const flag of [key, ...toList(def.alias)]) byFlag.set(flag, entry);
  }
  return byFlag;
}

/**
 * Reads `rawArgs` against `args`, refusing anything else: the problem is a
 * usage RiendaError naming the token. `command` is the full command
 * ("rienda run"); it prefixes the messages without the program name (the
 * CLI adds `rienda: `). A command takes as many words as it declares
 * positional args.
 */
export function readCommandLine<A extends ArgsDef>(
  rawArgs: readonly string[],
  args: A,
  command: string,
): CommandLine<A> {
  const name = command.replace(/^rienda ?/, "");
  let problem: RiendaError | undefined;
  const fail = (message: string): void => {
    problem ??= new RiendaError("usage", name ? `${name}: ${message}` : message);
  };
  const byFlag = flagTable(args);
  const takesWords = Object.values(args).filter((def) => def.type === "positional").length;
  const values: Record<string, string | boolean | string[]> = {};
  const given = new Map<string, string>();
  const positionals: string[] = [];
  const set = (key: string, token: string, value: string | boolean): void => {
    if (byFlag.get(key)?.multiple && typeof value === "string") {
      values[key] = [...((values[key] as string[] | undefined) ?? []), value];
      return;
    }
    const before = given.get(key);
    if (before !== undefined)
      return fail(
        `${before === token ? `option ${token}` : `options ${before} and ${token}`} given twice (see ${command} --help)`,
      );
    given.set(key, token);
    values[key] = value;
  };

  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === "--") {
      positionals.push(...rawArgs.slice(i + 1));
      break;
    }
    if (!token.startsWith("-") || token === "-") {
      positionals.push(token);
      continue;
    }
    const [flag, inline] = splitFlag(token);
    const shown = token.slice(0, token.length - (inline === undefined ? 0 : inline.length + 1));
    const known = byFlag.get(flag);
    const negated = !known && flag.startsWith("no-") ? byFlag.get(flag.slice(3)) : undefined;
    if (negated?.boolean || known?.boolean) {
      if (inline !== undefined) fail(`option ${shown} takes no value`);
      set((negated ?? known)!.key, token, !negated);
      continue;
    }
    if (!known) {
      fail(`unknown option ${shown} (see ${command} --help)`);
      continue;
    }
    const refuseEmpty = (value: string, as: string): void => {
      if (value === "" && known.key !== "prompt")
        fail(`option ${as} got an empty value (an unset variable in a script?)`);
    };
    if (inline !== undefined) {
      refuseEmpty(inline, shown);
      set(known.key, shown, inline);
      continue;
    }
    let next = rawArgs[i + 1];
    if (next === "--") {
      next = rawArgs[i + 2];
      if (next === undefined) {
        fail(`option ${token} needs a value after --`);
        break;
      }
      i += 2;
    } else if (next === undefined || looksLikeFlag(next)) {
      const example = next === undefined || byFlag.has(splitFlag(next)[0]) ? "-x" : next;
      fail(
        `option ${token} needs a value (for a value that starts with "-", write --${known.key}=${example} or ${token} -- ${example})`,
      );
      continue;
    } else i++;
    refuseEmpty(next, token);
    set(known.key, token, next);
  }

  if (positionals.length > takesWords) {
    const extra = positionals[takesWords]!;
    const prompt = values.prompt;
    const hint =
      typeof prompt === "string" && prompt !== "-"
        ? ` (a prompt of several words needs quotes: -p ${shellQuote([prompt, ...positionals.slice(takesWords)].join(" "))})`
        : ` (see ${command} --help)`;
    fail(`unexpected argument ${JSON.stringify(extra)}${hint}`);
  }
  return { values: values as ArgValues<A>, positionals, ...(problem ? { problem } : {}) };
}

/**
 * A word after a value flag that could be a flag rather than the value. A
 * word with whitespace in it is never a flag: `-p "$(cat notes.md)"` whose
 * text starts with "- item" or "---" is the prompt, as it was for the Go
 * program's scripts.
 */
export function looksLikeFlag(word: string): boolean {
  return word.startsWith("-") && word !== "-" && !/\s/.test(word);
}

export function splitFlag(token: string): [string, string | undefined] {
  const body = token.replace(/^--?/, "");
  const eq = body.indexOf("=");
  return eq === -1 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

function toList(alias: string | readonly string[] | undefined): readonly string[] {
  if (alias === undefined) return [];
  return typeof alias === "string" ? [alias] : alias;
}

function shellQuote(text: string): string {
  return /^[\w./:@%+,-]+$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, "\\$1")}"`;
}
