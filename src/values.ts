/**
 * Small checks and descriptions of values that came from outside (JSON,
 * YAML, what a user module returned, the file system), shared by every
 * folder so that messages describe a value the same way everywhere, and
 * never show a credential a server echoed back.
 *
 * A leaf: imports nothing of ours; no `Bun.*`.
 */
import { statSync } from "node:fs";

/** A plain object as parsed JSON or YAML gives it (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * How deeply arrays and objects may nest in JSON that Rienda reads from a
 * model, a server or a file it did not write. JSON.parse takes any depth,
 * but JSON.stringify, structuredClone and every recursive walk overflow the
 * stack somewhere past 40,000 levels (a tool call nested 60,000 deep ended
 * the run with "Maximum call stack size exceeded", issue 39). Nothing a
 * tool or a model means comes near this.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * The deepest nesting of arrays and objects in JSON text (brackets inside
 * strings do not count); linear in the text, without recursion. Counting
 * stops past `stopAfter`.
 */
export function jsonDepth(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > stopAfter) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Why JSON text is refused for its depth, or undefined when it is within `max`. */
export function jsonDepthProblem(text: string, max = MAX_JSON_DEPTH): string | undefined {
  return jsonDepth(text, max) > max
    ? `arrays and objects nested more than ${max} levels deep (Rienda reads JSON up to that depth)`
    : undefined;
}

/** JSON.parse for text from outside: throws an Error saying so when it nests deeper than `max`. */
export function parseJsonWithin(text: string, max = MAX_JSON_DEPTH): unknown {
  const problem = jsonDepthProblem(text, max);
  if (problem) throw new Error(problem);
  return JSON.parse(text);
}

/** A `{…}` mapping as YAML or JSON produces it: a plain object, not an instance of a class. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The credential in a header value: the token of `Bearer <token>` (or `Basic`, `Token`), else the whole value, trimmed. */
export function headerSecret(value: string): string {
  const trimmed = value.trim();
  return /^(?:Bearer|Basic|Token)\s+(.+)$/i.exec(trimmed)?.[1] ?? trimmed;
}

/**
 * `text` with every one of `secrets` shown as `***`, the longest first so
 * that a secret containing another is hidden whole: what a server echoes
 * back (a key it refused) never reaches a message.
 */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let shown = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret !== "") shown = shown.split(secret).join("***");
  }
  return shown;
}

/** Whether `path` names a regular file (following links); false when it cannot be read. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A JavaScript value's kind as messages name it: "null", "an array",
 * "a Promise", "an object", "a string", "a function", ...; an object of a
 * built-in kind by that kind ("an Error", "a Date", "a Map"), since it is
 * not the `{ ... }` of fields a message asks for.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      return isPlainObject(value) ? "an object" : builtInKind(value as object);
  }
}

/** "an Error", "a Date", "a Map": the built-in tag of an object that is not plain (an instance of a user class is "an object"). */
function builtInKind(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (tag === "Object" || tag === "") return "an object";
  return `${/^[AEIOU]/.test(tag) ? "an" : "a"} ${tag}`;
}

/**
 * A YAML value in the words of a YAML file ("a mapping", "a list",
 * "empty"), with the scalar itself so the user can find it: `a string
 * ("yes")`, `a number (3)`. Long strings are cut at 40 characters.
 */
export function describeYamlValue(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return `a boolean (${value})`;
  if (typeof value === "object") return "a mapping";
  return typeof value;
}

/**
 * The name of `known` a person most likely meant by `written`, for "did you
 * mean": the one fewest edits away (case ignored), at most 2 edits and at
 * most half of `written`, so a short name is not "corrected" into an
 * unrelated one. Names whose digits differ are never suggested: `gpt-5` is
 * another model than `gpt-4o`, not a typo of it. Undefined when nothing is
 * that close, or `written` is known.
 */
export function closestName(written: string, known: readonly string[]): string | undefined {
  const wanted = written.toLowerCase();
  const limit = Math.min(2, Math.max(1, Math.floor(wanted.length / 2)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  const digits = (name: string) => name.replace(/\D/g, "");
  for (const candidate of known) {
    if (candidate === written) return undefined;
    if (digits(candidate) !== digits(written)) continue;
    const d = editDistance(wanted, candidate.toLowerCase(), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** What a folder of definitions (agents, skills) holds, for a message about a name it does not. */
export interface DefinitionNames {
  /** `~/.rienda/agents`, `~/.rienda/skills`. */
  dir: string;
  /** The names that load. */
  loaded: readonly string[];
  /** The names that are there but do not load. */
  broken: readonly string[];
  /** How many entries could not be loaded or listed, the broken ones included. */
  problems: number;
}

/**
 * `unknown agent "wrtier" (did you mean "writer"? available: coder, writer;
 * not loading: half, see "rienda doctor")`: the closest name, what works,
 * what is broken. `none` ends the message when the folder holds nothing at all.
 */
export function unknownDefinitionMessage(kind: string, name: string, found: DefinitionNames, none: string): string {
  const hint = didYouMean(name, [...found.loaded, ...found.broken]);
  const notLoading =
    found.broken.length > 0
      ? `not loading: ${found.broken.join(", ")}, see "rienda doctor"`
      : found.problems > 0
        ? `some cannot be listed, see "rienda doctor"`
        : "";
  if (found.loaded.length > 0)
    return `unknown ${kind} "${name}" (${hint}available: ${found.loaded.join(", ")}${notLoading ? `; ${notLoading}` : ""})`;
  if (found.problems > 0) return `unknown ${kind} "${name}" (${hint}no ${kind} in ${found.dir} loads; ${notLoading})`;
  return `unknown ${kind} "${name}"${none}`;
}

/** `did you mean "x"? ` when a name of `known` is close to `written`, else "": the start of a parenthesised hint. */
export function didYouMean(written: string, known: readonly string[]): string {
  const near = closestName(written, known);
  return near === undefined ? "" : `did you mean "${near}"? `;
}

// Levenshtein distance; anything beyond `limit` reads as limit + 1.
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** Sums of float dollars drift; a millionth of a dollar is the unit costs are kept in (run totals, session totals). */
export function roundDollars(dollars: number): number {
  return Math.round(dollars * 1_000_000) / 1_000_000;
}

/**
 * US dollars for people, one format everywhere (run output, chats, `sessions`,
 * limit messages): "$1.25" from a dollar up, two significant digits under
 * it ("$0.50", "$0.015", "$0.0000012": never an exponent), "$0" for nothing.
 */
export function dollarsText(cost: number): string {
  if (cost >= 1) return `$${cost.toFixed(2)}`;
  if (!(cost > 0)) return "$0";
  return `$${cost.toFixed(Math.max(2, 1 - Math.floor(Math.log10(cost))))}`;
}
