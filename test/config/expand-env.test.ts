import { describe, expect, test } from "bun:test";
import { expandEnv } from "../../src/config/index.ts";

describe("expandEnv", () => {
  test("replaces ${NAME} with the variable's value, anywhere in the string", () => {
    expect(expandEnv("Bearer ${TOKEN}!", { TOKEN: "abc" })).toEqual({
      ok: true,
      value: "Bearer abc!",
      unset: [],
      used: ["TOKEN"],
    });
    expect(expandEnv("${A}${B}", { A: "1", B: "2" })).toEqual({ ok: true, value: "12", unset: [], used: ["A", "B"] });
  });

  test("an unset variable expands to an empty string and is reported by name", () => {
    expect(expandEnv("key=${MISSING}", {})).toEqual({ ok: true, value: "key=", unset: ["MISSING"], used: [] });
  });

  test("a variable set to an empty string is not unset", () => {
    expect(expandEnv("${EMPTY}", { EMPTY: "" })).toEqual({ ok: true, value: "", unset: [], used: [] });
  });

  test("${NAME:-fallback} uses the fallback when the variable is unset or empty", () => {
    expect(expandEnv("${HOST:-localhost}", {})).toEqual({ ok: true, value: "localhost", unset: [], used: [] });
    expect(expandEnv("${HOST:-localhost}", { HOST: "" })).toEqual({
      ok: true,
      value: "localhost",
      unset: [],
      used: [],
    });
    expect(expandEnv("${HOST:-localhost}", { HOST: "h" })).toEqual({ ok: true, value: "h", unset: [], used: ["HOST"] });
  });

  test("$${ writes a literal ${", () => {
    expect(expandEnv("a $${NAME} b", { NAME: "x" })).toEqual({ ok: true, value: "a ${NAME} b", unset: [], used: [] });
  });

  test("leaves $NAME without braces and lone dollars alone", () => {
    expect(expandEnv("$HOME costs $5", { HOME: "/h" })).toEqual({
      ok: true,
      value: "$HOME costs $5",
      unset: [],
      used: [],
    });
  });

  test("an unclosed reference is malformed", () => {
    const result = expandEnv("${OPENAI_API_KEY", {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain('unclosed variable reference "${OPENAI_API_KEY"');
  });

  test("a reference whose name is not a variable name is malformed", () => {
    const result = expandEnv("${OPENAI API KEY}", {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain('malformed variable reference "${OPENAI API KEY}"');
    expect(expandEnv("${1X}", {}).ok).toBe(false);
    expect(expandEnv("${}", {}).ok).toBe(false);
  });

  test("the value of a variable is not expanded again", () => {
    expect(expandEnv("${A}", { A: "${B}", B: "no" })).toEqual({ ok: true, value: "${B}", unset: [], used: ["A"] });
  });
});
