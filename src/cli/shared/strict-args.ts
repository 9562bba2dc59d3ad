/** Strict reading of one command's command line (flags, values, errors that say how to fix them). */
import type { ArgsDef } from "citty";
import { RiendaError } from "../../errors.ts";

/**
 * The command line of one command, read strictly: a script's typo or a
 * prompt without quotes must fail loudly instead of being guessed at.
 * citty's own parsing is too lenient for that (an unknown flag is taken,
 * `-p=x` gives "=x", surplus words are dropped), so commands read their
 * values from here.
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

/** The values read for a command's declared args. */
export type ArgValues<A extends ArgsDef> = {
  [K in keyof A]?: A[K] extends { type: "boolean" } ? boolean : A[K] extends { multiple: true } ? string[] : string;
};

/** What was read: named values and the words (positionals), in order. */
export interface ParsedCommandLine<A extends ArgsDef> {
  values: ArgValues<A>;
  positionals: string[];
}

/**
 * Reads `rawArgs` against `args` and refuses anything else; throws a usage
 * RiendaError naming the token. `command` is the full command ("rienda run");
 * it prefixes the messages without the program name (the CLI adds
 * `rienda: `). A command takes as many words as it declares positional args.
 */
export function assertKnownFlags<A extends ArgsDef>(rawArgs: string[], args: A, command: string): ParsedCommandLine<A> {
  const name = command.replace(/^rienda ?/, "");
  const fail = (message: string): never => {
    throw new RiendaError("usage", name ? `${name}: ${message}` : message);
  };
  const byFlag = new Map<string, { key: string; boolean: boolean }>();
  const multiple = new Set<string>();
  let takesWords = 0;
  for (const [key, def] of Object.entries(args)) {
    if (def.type === "positional") {
      takesWords++;
      continue;
    }
    for (const flag of [key, ...toList((def as { alias?: string | string[] }).alias)]) byFlag.set(flag, { key, boolean: def.type === "boolean" });
    if ((def as { multiple?: boolean }).multiple === true) multiple.add(key);
  }

  const values: Record<string, string | boolean | string[]> = {};
  const given = new Map<string, string>();
  const positionals: string[] = [];
  const set = (key: string, token: string, value: string | boolean): void => {
    if (multiple.has(key) && typeof value === "string") {
      values[key] = [...((values[key] as string[] | undefined) ?? []), value];
      return;
    }
    const before = given.get(key);
    if (before !== undefined) fail(`${before === token ? `option ${token}` : `options ${before} and ${token}`} given twice (see ${command} --help)`);
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
    if (negated?.boolean) {
      if (inline !== undefined) fail(`option ${shown} takes no value`);
      set(negated.key, token, false);
      continue;
    }
    if (!known) fail(`unknown option ${shown} (see ${command} --help)`);
    if (known!.boolean) {
      if (inline !== undefined) fail(`option ${shown} takes no value`);
      set(known!.key, token, true);
      continue;
    }
    const refuseEmpty = (value: string, as: string): void => {
      if (value === "" && known!.key !== "prompt") fail(`option ${as} got an empty value (an unset variable in a script?)`);
    };
    if (inline !== undefined) {
      refuseEmpty(inline, shown);
      set(known!.key, shown, inline);
      continue;
    }
    let next = rawArgs[i + 1];
    if (next === "--") {
      next = rawArgs[i + 2];
      if (next === undefined) fail(`option ${token} needs a value after --`);
      i += 2;
    } else {
      if (next === undefined || looksLikeFlag(next)) {
        const example = next === undefined || byFlag.has(splitFlag(next)[0]) ? "-x" : next;
        fail(`option ${token} needs a value (for a value that starts with "-", write --${known!.key}=${example} or ${token} -- ${example})`);
      }
      i++;
    }
    refuseEmpty(next!, token);
    set(known!.key, token, next!);
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
  return { values: values as ArgValues<A>, positionals };
}

/**
 * A word after a value flag that could be a flag rather than the value. A
 * word with whitespace in it is never a flag: `-p "$(cat notes.md)"` whose
 * text starts with "- item" or "---" is the prompt, as it was for the Go
 * program's scripts.
 */
function looksLikeFlag(word: string): boolean {
  return word.startsWith("-") && word !== "-" && !/\s/.test(word);
}

function splitFlag(token: string): [string, string | undefined] {
  const body = token.replace(/^--?/, "");
  const eq = body.indexOf("=");
  return eq === -1 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

function toList(alias: string | string[] | undefined): string[] {
  if (alias === undefined) return [];
  return Array.isArray(alias) ? alias : [alias];
}

function shellQuote(text: string): string {
  return /^[\w./:@%+,-]+$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, "\\$1")}"`;
}
