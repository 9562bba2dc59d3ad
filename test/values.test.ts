import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import {
  describeValue,
  describeYamlValue,
  dollarsText,
  headerSecret,
  hideSecrets,
  isFile,
  isPlainObject,
  isRecord,
  jsonDepth,
  jsonDepthProblem,
  MAX_JSON_DEPTH,
  parseJsonWithin,
  unknownDefinitionMessage,
} from "../src/values.ts";

describe("values", () => {
  test("describeValue names a JavaScript value's kind as messages do", () => {
    const cases: [unknown, string][] = [
      [undefined, "undefined"],
      [null, "null"],
      [[], "an array"],
      [Promise.resolve(1), "a Promise"],
      [{}, "an object"],
      ["x", "a string"],
      [1, "a number"],
      [true, "a boolean"],
      [1n, "a bigint"],
      [() => 1, "a function"],
    ];
    for (const [value, words] of cases) expect(describeValue(value)).toBe(words);
  });

  test("describeYamlValue speaks YAML and shows scalars, cutting long strings", () => {
    expect(describeYamlValue(null)).toBe("empty");
    expect(describeYamlValue([1])).toBe("a list");
    expect(describeYamlValue({ a: 1 })).toBe("a mapping");
    expect(describeYamlValue(3)).toBe("a number (3)");
    expect(describeYamlValue(false)).toBe("a boolean (false)");
    expect(describeYamlValue("yes")).toBe('a string ("yes")');
    expect(describeYamlValue("x".repeat(50))).toBe(`a string ("${"x".repeat(40)}…")`);
  });

  test("isRecord takes any non-array object; isPlainObject only mappings", () => {
    expect([isRecord({}), isRecord([]), isRecord(null), isRecord(new Date())]).toEqual([true, false, false, true]);
    expect([
      isPlainObject({}),
      isPlainObject(Object.create(null)),
      isPlainObject(new Date()),
      isPlainObject([]),
    ]).toEqual([true, true, false, false]);
  });

  test("isFile is true for a file only, false for a directory or nothing", () => {
    expect(isFile(import.meta.path)).toBe(true);
    expect(isFile(tmpdir())).toBe(false);
    expect(isFile("/no/such/file")).toBe(false);
  });

  test("headerSecret is the token of an authorization scheme, else the whole value", () => {
    expect(headerSecret("Bearer abc-123")).toBe("abc-123");
    expect(headerSecret(" basic dXNlcjpwYXNz ")).toBe("dXNlcjpwYXNz");
    expect(headerSecret("Token t0k")).toBe("t0k");
    expect(headerSecret("sk-plain-key")).toBe("sk-plain-key");
  });

  test("hideSecrets shows each secret as *** , a longer one whole even when it holds a shorter one", () => {
    expect(hideSecrets("key sk-long-secret refused (sk-long)", ["sk-long", "sk-long-secret"])).toBe(
      "key *** refused (***)",
    );
    expect(hideSecrets("nothing to hide", ["", "absent"])).toBe("nothing to hide");
  });

  test("unknownDefinitionMessage: what loads with a near name first, what is broken apart, and the folder when nothing loads", () => {
    const none = ": there are none yet";
    expect(
      unknownDefinitionMessage(
        "agent",
        "wrtier",
        { dir: "/a", loaded: ["coder", "writer"], broken: ["half"], problems: 1 },
        none,
      ),
    ).toBe(
      'unknown agent "wrtier" (did you mean "writer"? available: coder, writer; not loading: half, see "rienda doctor")',
    );
    expect(unknownDefinitionMessage("skill", "x", { dir: "/s", loaded: [], broken: [], problems: 2 }, none)).toBe(
      'unknown skill "x" (no skill in /s loads; some cannot be listed, see "rienda doctor")',
    );
    expect(unknownDefinitionMessage("skill", "x", { dir: "/s", loaded: [], broken: [], problems: 0 }, none)).toBe(
      'unknown skill "x": there are none yet',
    );
  });
});

describe("dollarsText (issue 41: one dollar format for run output, chats, sessions and limits)", () => {
  test("cents from a dollar up, two significant digits under it, never an exponent", () => {
    const cases: [number, string][] = [
      [0, "$0"],
      [12.345, "$12.35"],
      [1, "$1.00"],
      [0.5, "$0.50"],
      [0.6000000000000001, "$0.60"],
      [0.03, "$0.030"],
      [0.015, "$0.015"],
      [0.001234, "$0.0012"],
      [0.0000012, "$0.0000012"],
      [1e-9, "$0.0000000010"],
    ];
    for (const [cost, text] of cases) expect(dollarsText(cost)).toBe(text);
  });
});

describe("jsonDepth and parseJsonWithin (issue 39, item 8)", () => {
  test("count the nesting of arrays and objects, not brackets inside strings", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('"[[[[\\"[["')).toBe(0);
    expect(jsonDepth('{"a":"\\\\"}')).toBe(1);
  });

  test("text deeper than the limit is refused before JSON.parse, without recursion", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(jsonDepth(deep, 300)).toBe(301);
    expect(() => parseJsonWithin(deep)).toThrow(`arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep`);
    const fine = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(jsonDepthProblem(fine)).toBeUndefined();
    expect(parseJsonWithin('{"a":[1]}')).toEqual({ a: [1] });
  });
});
