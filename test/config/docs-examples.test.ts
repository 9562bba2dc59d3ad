/**
 * docs/config.md is checked against the code: every YAML example in it is a
 * complete file that loads, and the error messages it quotes are the ones
 * the code produces.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseConfig, type LoadedConfig } from "../../src/config/index.ts";

const DOC = readFileSync(resolve(import.meta.dir, "../../docs/config.md"), "utf8");
const FILE = "/home/ana/.rienda/config.yaml";
const ENV = {
  OPENAI_API_KEY: "sk-o",
  ANTHROPIC_API_KEY: "sk-a",
  GITHUB_TOKEN: "gh",
  MOONSHOT_API_KEY: "sk-m",
  OPENROUTER_API_KEY: "sk-r",
};

function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] ?? "");
}

function load(text: string, env: Record<string, string> = ENV): LoadedConfig {
  return parseConfig(text, { path: FILE, env, home: "/home/ana" });
}

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

const yamlBlocks = blocks("yaml");
const quoted = blocks("text").join("\n");

describe("docs/config.md", () => {
  test("has YAML examples", () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(5);
  });

  test("every YAML example loads and every model it declares resolves", () => {
    for (const text of yamlBlocks) {
      const config = load(text);
      expect(config.modelRefs().length).toBeGreaterThan(0);
      for (const ref of config.modelRefs()) expect(config.resolveModel(ref).ref).toBe(ref);
    }
  });

  test("the complete example declares the models the text says", () => {
    expect(load(yamlBlocks[0] ?? "").modelRefs()).toEqual([
      "openai/gpt-4o",
      "openai/o3",
      "anthropic/sonnet",
      "local/llama",
    ]);
  });

  test("the quoted resolution errors are what the complete example produces", () => {
    const config = load(yamlBlocks[0] ?? "");
    // A run names the built-in provider modules too (the roster's wording around config.yaml's).
    const withModules = (message: string) =>
      message.replace(/\)$/, "; provider modules: opencode-go, zai-coding-plan)");
    expect(quoted).toContain(`rienda: ${withModules(thrown(() => config.resolveModel("opena/gpt-4o")))}\n`);
    expect(quoted).toContain(`rienda: ${thrown(() => config.resolveModel("openai/gpt-5"))}\n`);
  });

  test("the quoted unset-variable error is what the complete example produces without the key", () => {
    const config = load(yamlBlocks[0] ?? "", { ANTHROPIC_API_KEY: "sk-a" });
    expect(quoted).toContain(`rienda: ${thrown(() => config.resolveModel("openai/gpt-4o"))}\n`);
  });

  test("the quoted validation errors are what the code produces", () => {
    const base =
      "providers:\n  local:\n    preset: ollama\n    models:\n      llama: { temperature: 3 }\n    modles: {}\n";
    // Each problem is a line of its own, each prefixed as the command line prints it.
    expect(quoted).toContain(
      `${thrown(() => load(base))
        .split("\n")
        .map((line) => `rienda: ${line}`)
        .join("\n")}\n`,
    );
    const duplicate =
      "providers:\n  local:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:8080/v1\n    models: { m: {} }\n    protocol: anthropic\n";
    expect(quoted).toContain(`rienda: ${thrown(() => load(duplicate))}\n`);
  });

  test("the replay example resolves its script next to config.yaml", () => {
    const replay = yamlBlocks.find((t) => t.includes("protocol: replay")) ?? "";
    expect(load(replay).resolveModel("replay/demo").script).toBe("/home/ana/.rienda/replay/demo.yaml");
  });
});
