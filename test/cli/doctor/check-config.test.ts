import { describe, expect, test } from "bun:test";
import { checkConfig, configHint } from "../../../src/cli/doctor/index.ts";
import { ConfigError, parseConfig } from "../../../src/config/index.ts";

const FILE = "/home/ana/.rienda/config.yaml";

function problemsOf(text: string) {
  try {
    parseConfig(text, { path: FILE, env: {}, home: "/home/ana" });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("the config loaded");
}

describe("checkConfig", () => {
  test("a loaded config has no finding", () => {
    expect(checkConfig({ kind: "loaded" })).toEqual([]);
  });

  test("a missing ~/.rienda/config.yaml is a problem whose fix is rienda init", () => {
    expect(checkConfig({ kind: "missing", file: FILE, source: "home" })).toEqual([
      {
        severity: "problem",
        check: "config",
        file: FILE,
        message: "no configuration file here",
        hint: 'run "rienda init": it writes a commented starter config.yaml (docs/config.md describes the file)',
      },
    ]);
  });

  test("a missing --config or RIENDA_CONFIG file points at the path given", () => {
    expect(checkConfig({ kind: "missing", file: "/x.yaml", source: "flag" })[0]!.hint).toStartWith(
      "check the path given with --config",
    );
    expect(checkConfig({ kind: "missing", file: "/x.yaml", source: "env" })[0]!.hint).toStartWith(
      "check the path in RIENDA_CONFIG",
    );
  });

  test("every validation problem becomes a problem with its key, line and a fix", () => {
    const problems = problemsOf(
      "providers:\n  local:\n    preset: ollama\n    modles: {}\n    models: { m: { temperature: 5 } }\n",
    );
    const findings = checkConfig({ kind: "invalid", problems });
    expect(findings.map((f) => [f.severity, f.key, f.line])).toEqual([
      ["problem", "providers.local.modles", 4],
      ["problem", "providers.local.models.m.temperature", 5],
    ]);
    expect(findings[0]!.message).toStartWith('unknown key (did you mean "models"?');
    expect(findings[0]!.hint).toBe(
      'remove the key "providers.local.modles" or correct its spelling (the message lists the known keys)',
    );
    expect(findings[1]!.hint).toContain("change the value of");
  });

  test("a problem of the whole file has no key", () => {
    const [finding] = checkConfig({ kind: "invalid", problems: problemsOf("") });
    expect(finding!.key).toBeUndefined();
    expect(finding!.hint).toContain("rienda init");
  });
});

describe("configHint", () => {
  const hint = (message: string, path = "providers.x") => configHint({ file: FILE, path, message });
  test("picks a fix by what the message says", () => {
    expect(hint('line 3, column 1: duplicate key "a"', "")).toBe("keep one of the two keys and delete the other");
    expect(hint("line 3, column 1: bad indentation", "")).toBe("fix the YAML syntax at that line and column");
    expect(hint("set either protocol or preset, not both")).toBe('keep only one of "protocol" and "preset"');
    expect(hint('unknown preset "x" (known presets: openai)', "providers.x.preset")).toBe(
      "use one of the values the message lists",
    );
    expect(hint('is required with protocol "replay" (the path of a replay script)', "providers.x.script")).toBe(
      'add "providers.x.script" to the provider (docs/config.md shows an example)',
    );
    expect(hint("cannot be read: permission denied", "")).toBe(`make the file readable by you: chmod 600 ${FILE}`);
    expect(hint("something nobody foresaw")).toBe("see docs/config.md for what the file may contain");
  });
});
