import { describe, expect, test } from "bun:test";
import { findingLine, formatJson, formatReport, summaryLine, type DoctorReport, type Finding } from "../../../src/cli/doctor/index.ts";

const checked = {
  config: "/h/.rienda/config.yaml",
  configLoaded: true,
  agents: ["starter"],
  tools: ["shell", "word-count"],
  hooks: [],
  skills: [],
  workspace: "/w",
  instructions: null,
  contextWindows: [],
};
const problem: Finding = { severity: "problem", check: "tool", file: "/h/.rienda/tools/t/index.js", name: "t", message: 'tool "t": missing "execute" (a function)', hint: "add execute" };
const warning: Finding = { severity: "warning", check: "config", file: checked.config, key: "providers.openai.api_key", name: "OPENAI_API_KEY", message: "environment variable OPENAI_API_KEY is not set", hint: "set it" };

describe("formatReport", () => {
  test("a healthy report lists what was checked and ends with healthy", () => {
    const text = formatReport({ healthy: true, problems: [], warnings: [], checked });
    expect(text).toBe(
      [
        "config        /h/.rienda/config.yaml",
        "agents        starter",
        "tools         shell, word-count",
        "hooks         none",
        "skills        none",
        "instructions  none in /w",
        "",
        "healthy",
        "",
      ].join("\n"),
    );
  });

  test("findings come problems first, each with its fix, then the counts", () => {
    const report: DoctorReport = { healthy: false, problems: [problem], warnings: [warning], checked: { ...checked, tools: ["shell"] } };
    const text = formatReport(report);
    expect(text).toContain(
      [
        "tools         shell (and 1 that does not load)",
        "hooks         none",
        "skills        none",
        "instructions  none in /w",
        "",
        `problem: /h/.rienda/tools/t/index.js: tool "t": missing "execute" (a function)`,
        "  fix: add execute",
        "warning: /h/.rienda/config.yaml: providers.openai.api_key: environment variable OPENAI_API_KEY is not set",
        "  fix: set it",
        "",
        "1 problem, 1 warning",
        "",
      ].join("\n"),
    );
  });
});

describe("findingLine", () => {
  test("adds the line to the file, and the key unless the message starts with it", () => {
    expect(findingLine({ ...warning, line: 4 })).toBe(`warning: ${checked.config}:4: providers.openai.api_key: environment variable OPENAI_API_KEY is not set`);
    expect(findingLine({ ...warning, key: "model", message: "model: must have the form provider/alias" })).toBe(`warning: ${checked.config}: model: must have the form provider/alias`);
    expect(findingLine({ ...warning, key: undefined, line: 3, message: "line 3, column 1: bad" })).toBe(`warning: ${checked.config}: line 3, column 1: bad`);
  });
});

describe("summaryLine", () => {
  test("healthy, healthy with warnings, or counts", () => {
    expect(summaryLine({ problems: [], warnings: [] })).toBe("healthy");
    expect(summaryLine({ problems: [], warnings: [warning, warning] })).toBe("healthy (2 warnings)");
    expect(summaryLine({ problems: [problem, problem], warnings: [] })).toBe("2 problems, 0 warnings");
  });
});

test("a local model's context window is shown as its server reports it", () => {
  const text = formatReport({ healthy: true, problems: [], warnings: [], checked: { ...checked, contextWindows: [{ model: "local/q", tokens: 8192, source: "llama.cpp's GET http://127.0.0.1:8080/props" }] } });
  expect(text).toContain("instructions  none in /w\nwindow        local/q: 8,192 tokens (llama.cpp's GET http://127.0.0.1:8080/props)\n");
});

describe("formatJson", () => {
  test("one line holding { healthy, problems, warnings, checked }, absent fields as null", () => {
    const text = formatJson({ healthy: false, problems: [problem], warnings: [], checked });
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd().includes("\n")).toBe(false);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["healthy", "problems", "warnings", "checked"]);
    expect(parsed.problems[0]).toEqual({ severity: "problem", check: "tool", file: problem.file, key: null, line: null, name: "t", message: problem.message, hint: "add execute" });
    expect(parsed.checked).toEqual(checked);
  });
});
