import { describe, expect, test } from "bun:test";
import type { ProviderRow } from "../../../src/cli/shared/provider-rows.ts";
import {
  findingLine,
  formatJson,
  formatReport,
  summaryLine,
  type DoctorReport,
  type Finding,
} from "../../../src/cli/doctor/index.ts";

const checked: DoctorReport["checked"] = {
  config: "/h/.rienda/config.yaml",
  configLoaded: true,
  configPresent: true,
  providers: [],
  agents: ["starter"],
  tools: ["shell", "word-count"],
  hooks: [],
  skills: [],
  workspace: "/w",
  instructions: null,
  contextWindows: [],
};
const problem: Finding = {
  severity: "problem",
  check: "tool",
  file: "/h/.rienda/tools/t/index.js",
  name: "t",
  message: 'tool "t": missing "execute" (a function)',
  hint: "add execute",
};
const warning: Finding = {
  severity: "warning",
  check: "config",
  file: checked.config,
  key: "providers.openai.api_key",
  name: "OPENAI_API_KEY",
  message: "environment variable OPENAI_API_KEY is not set",
  hint: "set it",
};

describe("formatReport", () => {
  test("a healthy report lists what was checked and ends with healthy", () => {
    const text = formatReport({ healthy: true, problems: [], warnings: [], checked });
    expect(text).toBe(
      [
        "config        /h/.rienda/config.yaml",
        "providers     none",
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
    const report: DoctorReport = {
      healthy: false,
      problems: [problem],
      warnings: [warning],
      checked: { ...checked, tools: ["shell"] },
    };
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

describe("the providers in the header", () => {
  const row = (name: string, extra: Partial<ProviderRow>): ProviderRow => ({
    name,
    origin: "module",
    source: `/h/.rienda/providers/${name}/index.js`,
    ready: false,
    needsNoKey: false,
    ...extra,
  });

  test("one line per provider: where it is declared, its key, its models; a module that fails does not load", () => {
    const providers: ProviderRow[] = [
      row("openai", {
        origin: "config",
        source: checked.config,
        key: "config",
        ready: false,
        models: 3,
        emptyKey: "OPENAI_API_KEY is not set",
      }),
      row("local", { origin: "config", source: checked.config, key: "not needed", ready: true, models: 1 }),
      row("acme", { key: "credentials", ready: true, models: 12 }),
      row("free", { key: "not needed", ready: true, models: 2, needsNoKey: true }),
      row("zai-coding-plan", { origin: "built-in", key: "missing", models: 5 }),
      row("broken", { problem: 'provider "broken": base_url is required' }),
    ];
    const text = formatReport({ healthy: true, problems: [], warnings: [], checked: { ...checked, providers } });
    expect(text).toStartWith(
      [
        "config        /h/.rienda/config.yaml",
        "providers     openai (config.yaml): no key (OPENAI_API_KEY is not set), 3 models",
        "              local (config.yaml): no key (optional), 1 model",
        "              acme (module): key in credentials.json, 12 models",
        "              free (module): needs no key, 2 models",
        "              zai-coding-plan (built-in): no key (rienda auth), 5 models",
        "              broken (module): does not load",
        "agents        starter",
      ].join("\n"),
    );
    const json = JSON.parse(
      formatJson({ healthy: true, problems: [], warnings: [], checked: { ...checked, providers } }),
    );
    expect(json.checked.providers[4]).toEqual({
      name: "zai-coding-plan",
      origin: "built-in",
      source: "/h/.rienda/providers/zai-coding-plan/index.js",
      key: "missing",
      ready: false,
      models: 5,
      problem: null,
    });
  });

  test("a missing ~/.rienda/config.yaml is no problem: it is optional; a config that does not load checks no provider", () => {
    expect(
      formatReport({ healthy: true, problems: [], warnings: [], checked: { ...checked, configPresent: false } }),
    ).toStartWith("config        /h/.rienda/config.yaml (none: it is optional)\nproviders     none\n");
    expect(
      formatReport({ healthy: false, problems: [problem], warnings: [], checked: { ...checked, configLoaded: false } }),
    ).toStartWith(
      "config        /h/.rienda/config.yaml (does not load)\nproviders     not checked (the config does not load)\n",
    );
  });
});

describe("findingLine", () => {
  test("adds the line to the file, and the key unless the message starts with it", () => {
    expect(findingLine({ ...warning, line: 4 })).toBe(
      `warning: ${checked.config}:4: providers.openai.api_key: environment variable OPENAI_API_KEY is not set`,
    );
    expect(findingLine({ ...warning, key: "model", message: "model: must have the form provider/alias" })).toBe(
      `warning: ${checked.config}: model: must have the form provider/alias`,
    );
    expect(findingLine({ ...warning, key: undefined, line: 3, message: "line 3, column 1: bad" })).toBe(
      `warning: ${checked.config}: line 3, column 1: bad`,
    );
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
  const text = formatReport({
    healthy: true,
    problems: [],
    warnings: [],
    checked: {
      ...checked,
      contextWindows: [{ model: "local/q", tokens: 8192, source: "llama.cpp's GET http://127.0.0.1:8080/props" }],
    },
  });
  expect(text).toContain(
    "instructions  none in /w\nwindow        local/q: 8,192 tokens (llama.cpp's GET http://127.0.0.1:8080/props)\n",
  );
});

describe("formatJson", () => {
  test("one line holding { healthy, problems, warnings, checked }, absent fields as null", () => {
    const text = formatJson({ healthy: false, problems: [problem], warnings: [], checked });
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd().includes("\n")).toBe(false);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["healthy", "problems", "warnings", "checked"]);
    expect(parsed.problems[0]).toEqual({
      severity: "problem",
      check: "tool",
      file: problem.file,
      key: null,
      line: null,
      name: "t",
      message: problem.message,
      hint: "add execute",
    });
    expect(parsed.checked).toEqual(checked);
  });
});
