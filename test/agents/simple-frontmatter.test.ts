import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { readSimpleFrontmatter } from "../../src/agents/simple-frontmatter.ts";

/** Lines the fast path must either read exactly as `yaml` does, or leave to it. */
const CASES = [
  "name: pdf\ndescription: Reads PDF files. Use when a PDF is involved.",
  "description: Applies Anthropic's official brand colors, typography and look-and-feel.",
  "license: Complete terms in LICENSE.txt",
  "allowed-tools: Bash(git:*) Read",
  "x: foo#bar",
  "x: foo # a comment",
  "x: a  b   c   ",
  "x: 2026-01-01",
  "x: yes",
  "x: on",
  "x: 1.0",
  "x: 1_000",
  "x: .5",
  "x: 0x1F",
  "x: -3",
  "x: +.inf",
  "x: .NaN",
  "x: ~",
  "x: null",
  "x: True",
  "x: 'quoted'",
  'x: "quoted"',
  "x: [a, b]",
  "x: {a: 1}",
  "x: a: b",
  "x: &anchor value",
  "x: *alias",
  "x: !tag value",
  "x: | block",
  "x: > folded",
  "x: @at",
  "x: `tick",
  "x: %percent",
  "x: - item",
  "x: ? key",
  "x: value:",
  "x: tab\tinside",
  "x:",
  "x: first\n  continued on the next line",
  "x: 1\nx: 2",
  "<<: merge",
  "x: ok\n# a comment line",
  "model: openai/gpt-4o\ndescription: Reviews code.",
  "description: übersetzt — 用于为制品添加主题样式",
];

describe("readSimpleFrontmatter", () => {
  for (const source of CASES) {
    test(`reads ${JSON.stringify(source)} as yaml does, or leaves it to yaml`, () => {
      const fast = readSimpleFrontmatter(source);
      if (fast === undefined) return;
      expect(fast).toEqual(parse(source));
      for (const value of Object.values(fast)) expect(typeof value).toBe("string");
    });
  }

  test("takes the plain lines of real frontmatter and leaves the rest to yaml", () => {
    expect(readSimpleFrontmatter("name: pdf\ndescription: Reads PDFs.\nlicense: MIT")).toEqual({
      name: "pdf",
      description: "Reads PDFs.",
      license: "MIT",
    });
    for (const source of [
      "x: 1.0",
      "x: [a]",
      "x: foo # c",
      "x: 1\nx: 2",
      "metadata:\n  a: b",
      "x: null",
      "x: 'q'",
      "",
    ]) {
      expect(readSimpleFrontmatter(source)).toBeUndefined();
    }
  });
});
