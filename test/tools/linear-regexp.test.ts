/** Schema patterns are matched in linear time (issue 39, item 2). */
import { describe, expect, test } from "bun:test";
import { createArgumentValidator } from "../../src/tools/index.ts";
import { loadLinearRegExpEngine } from "../../src/tools/linear-regexp.ts";

describe("the linear-time pattern engine", () => {
  test("matches JSON Schema patterns as JavaScript would: unanchored, named groups, \\u escapes, \\p classes, lookbehind", async () => {
    const engine = await loadLinearRegExpEngine();
    const cases: Array<[string, string, boolean]> = [
      ["b+", "abbbc", true],
      ["^b+$", "abbbc", false],
      ["^(?<year>\\d{4})-\\d{2}$", "2026-12", true],
      ["^[\\u0041-\\u005A]+$", "ABC", true],
      ["^\\p{L}+$", "añø", true],
      ["^\\p{L}+$", "a1", false],
      ["(?<=\\$)\\d+", "cost $12", true],
      ["(?<=\\$)\\d+", "cost 12", false],
      ["^[\\w.-]+@[\\w.-]+$", "ana@example.com", true],
    ];
    for (const [pattern, text, expected] of cases)
      expect([pattern, text, engine(pattern, "u").test(text)]).toEqual([pattern, text, expected]);
  });

  test("a pattern that backtracks for ever in JavaScript answers at once", async () => {
    const engine = await loadLinearRegExpEngine();
    expect(engine("^(a|a?)+$", "u").test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(engine("^(a+)+$", "u").test(`${"a".repeat(100_000)}`)).toBe(true);
  });

  test("lookahead and backreferences are refused, naming the pattern and why", async () => {
    const engine = await loadLinearRegExpEngine();
    expect(() => engine("^(?!-)[a-z]+$", "u")).toThrow(
      'pattern "^(?!-)[a-z]+$" cannot be used: error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    );
    expect(() => engine("(\\w)\\1", "u")).toThrow("no lookahead, no backreferences");
  });

  test("ajv keeps one compiled pattern per pattern text", async () => {
    const engine = await loadLinearRegExpEngine();
    expect(engine("a", "u").toString()).not.toBe(engine("b", "u").toString());
  });
});

describe("argument checks use it", () => {
  test("a hostile pattern in pattern, patternProperties and propertyNames: each answers at once", async () => {
    const validator = createArgumentValidator();
    const trigger = (c: string) => `${c.repeat(60)}!`;
    expect(
      await validator.check(
        { type: "object", properties: { name: { type: "string", pattern: "^(a|a?)+$" } } },
        { name: trigger("a") },
      ),
    ).toEqual(['name: must match pattern "^(a|a?)+$"']);
    const closed = {
      type: "object",
      patternProperties: { "^(b|b?)+$": { type: "string" } },
      additionalProperties: false,
    };
    expect(await validator.check(closed, { [trigger("b")]: 1 })).toEqual([`unexpected property "${trigger("b")}"`]);
    const named = { type: "object", propertyNames: { pattern: "^(c|c?)+$" } };
    expect(await validator.check(named, { [trigger("c")]: 1 })).toContain('must match pattern "^(c|c?)+$"');
  });

  test("a schema with a lookahead pattern cannot be used: each call says why", async () => {
    const validator = createArgumentValidator();
    const problems = await validator.check(
      { type: "object", properties: { x: { type: "string", pattern: "^(?=a)" } } },
      { x: "a" },
    );
    expect(problems.length).toBe(1);
    expect(problems[0]).toStartWith(`the tool's parameters schema cannot be used: pattern "^(?=a)" cannot be used`);
  });
});
