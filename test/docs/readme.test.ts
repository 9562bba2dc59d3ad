/** The README's examples must work as written. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAgent } from "../../src/agents/index.ts";
import { STARTER_FILES } from "../../src/cli/init/index.ts";
import { parseConfig } from "../../src/config/index.ts";

const ROOT = resolve(import.meta.dir, "../..");
const README = readFileSync(resolve(ROOT, "README.md"), "utf8");
const blocks = (lang: string) =>
  [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
const STARTER_CONFIG = STARTER_FILES.find((f) => f.path === "config.yaml")!.content;

/** init's config.yaml with the README's step-2 addition pasted right under `providers:`, as the README says. */
function configWithReadmeAddition(starter: string, addition: string): string {
  return starter.replace(/^providers:\n/m, `providers:\n${addition}`);
}

describe("README", () => {
  test("starts with the two commands that do everything on a fresh clone", () => {
    const first = blocks("sh")[0]!;
    expect(first).toContain("make demo");
    expect(first).toContain("make test");
  });

  test("the step-2 snippet is an addition to init's config: pasted under providers:, every model resolves, replay included", () => {
    const addition = blocks("yaml")[0]!;
    expect(addition).not.toMatch(/^providers:/m);
    const config = parseConfig(configWithReadmeAddition(STARTER_CONFIG, addition), {
      path: "/x/config.yaml",
      env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", OPENROUTER_API_KEY: "k" },
      home: "/x",
    });
    for (const ref of [
      "replay/starter",
      "ollama/qwen3",
      "openai/gpt-4o",
      "anthropic/sonnet",
      "openrouter/kimi",
      "llamacpp/local",
    ]) {
      expect(config.resolveModel(ref).ref).toBe(ref);
    }
    expect(config.resolveModel("openrouter/kimi").wireId).toBe("moonshotai/kimi-k2");
    expect(config.resolveModel("llamacpp/local").baseUrl).toBe("http://127.0.0.1:8080/v1");
  });

  test("the agent parses and names a model init's config declares", () => {
    const agent = parseAgent("coder", blocks("markdown")[0]!, "/x/coder.md");
    expect(agent.tools).toEqual(["shell", "word-count"]);
    const config = parseConfig(STARTER_CONFIG, { path: "/x/config.yaml", env: {}, home: "/x" });
    expect(config.resolveModel(agent.model!).ref).toBe(agent.model!);
  });

  test("every linked doc exists", () => {
    for (const [, link] of README.matchAll(/\]\((docs\/[^)#]+)(#[^)]*)?\)/g))
      expect(existsSync(resolve(ROOT, link!))).toBe(true);
  });
});
