/** The README's examples must work as written. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAgent } from "../../src/agents/index.ts";
import { parseConfig } from "../../src/config/index.ts";

const ROOT = resolve(import.meta.dir, "../..");
const README = readFileSync(resolve(ROOT, "README.md"), "utf8");
const blocks = (lang: string) => [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

describe("README", () => {
  test("starts with the two commands that do everything on a fresh clone", () => {
    const first = blocks("sh")[0]!;
    expect(first).toContain("make demo");
    expect(first).toContain("make test");
  });

  test("the provider config loads and every model resolves", () => {
    const yaml = blocks("yaml")[0]!;
    const config = parseConfig(yaml, { path: "/x/config.yaml", env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }, home: "/x" });
    for (const ref of ["openai/gpt-4o", "anthropic/sonnet", "ollama/llama"]) expect(config.resolveModel(ref).ref).toBe(ref);
    expect(config.resolveModel("ollama/llama").baseUrl).toBe("http://127.0.0.1:11434/v1");
  });

  test("the agent parses", () => {
    const agent = parseAgent("coder", blocks("markdown")[0]!, "/x/coder.md");
    expect(agent.tools).toEqual(["shell", "word-count"]);
  });

  test("every linked doc exists", () => {
    for (const [, link] of README.matchAll(/\]\((docs\/[^)]+)\)/g)) expect(existsSync(resolve(ROOT, link!))).toBe(true);
  });
});
