/**
 * The regular-expression engine of every schema check (ajv's `code.regExp`):
 * RE2's, in pure JavaScript (re2js), which matches in time linear in the
 * text. A JSON Schema `pattern` comes from a tool's or an MCP server's
 * schema and the text from the model: with JavaScript's backtracking
 * engine, `^(a|a?)+$` against forty `a`s and a `!` holds the main thread
 * for ever, and with it every interrupt and `--timeout` (issue 39).
 *
 * RE2 has no lookahead and no backreferences (lookbehind it has): a pattern
 * that uses them cannot be compiled, and the schema that holds it is
 * refused with a message saying so, never matched with the backtracking
 * engine instead. re2js is loaded with ajv, when a schema is first needed.
 */
import type { RE2JS } from "re2js";

/** What ajv calls `.test` on. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/** ajv's `code.regExp` option: compiles a pattern; `code` is the name ajv's standalone code would call it by. */
export type LinearRegExpEngine = ((pattern: string, flags: string) => LinearRegExp) & { code: string };

let loading: Promise<LinearRegExpEngine> | undefined;

/** The engine, once re2js is loaded. */
export function loadLinearRegExpEngine(): Promise<LinearRegExpEngine> {
  return (loading ??= import("re2js").then(({ RE2JS: re2 }) =>
    Object.assign((pattern: string, flags: string) => compileWith(re2, pattern, flags), {
      code: "compileLinearRegExp",
    }),
  ));
}

/**
 * Compiles a JSON Schema (ECMAScript) pattern for linear-time matching;
 * throws an Error naming the pattern when RE2 cannot run it. `flags` is
 * ajv's (`"u"`): RE2 always matches by code point, as `u` does.
 */
function compileWith(re2: typeof RE2JS, pattern: string, flags: string): LinearRegExp {
  let compiled: RE2JS;
  try {
    compiled = re2.compile(re2.translateRegExp(pattern), re2.LOOKBEHINDS);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `pattern ${JSON.stringify(pattern)} cannot be used: ${why} (patterns are matched in linear time, with RE2's syntax: no lookahead, no backreferences)`,
    );
  }
  // ajv keys its compiled patterns by this text: it must differ per pattern.
  const key = `/${pattern}/${flags} (re2)`;
  return { test: (text) => compiled.test(text), toString: () => key };
}
