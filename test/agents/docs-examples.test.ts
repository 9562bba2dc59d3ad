/**
 * docs/agents.md is checked against the code: its agent examples parse, the
 * system prompt it shows is the one composed, and the errors it quotes are
 * the ones produced.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { composeSystemPrompt, loadAgent, parseAgent } from "../../src/agents/index.ts";

const DOC = readFileSync(resolve(import.meta.dir, "../../docs/agents.md"), "utf8");
const root = mkdtempSync(join(tmpdir(), "rienda-agents-doc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] ?? "");
}

const agents = blocks("markdown");
const texts = blocks("text");

describe("docs/agents.md", () => {
  test("every agent example parses", () => {
    expect(agents.length).toBeGreaterThanOrEqual(2);
    for (const text of agents) expect(parseAgent("example", text, "/x/example.md").description).not.toBe("");
  });

  test("the first example has the tools, hooks (in order) and config it shows", () => {
    const agent = parseAgent("reviewer", agents[0] ?? "", "/x/reviewer.md");
    expect([agent.model, agent.tools, agent.hooks]).toEqual([
      "anthropic/sonnet",
      ["shell", "word-count"],
      ["guard", "date-injection"],
    ]);
    expect(agent.config).toEqual({ guard: { deny: ["rm -rf", "git push --force"] } });
  });

  test("the composed system prompt shown is exactly what composeSystemPrompt makes", () => {
    const agent = parseAgent("reviewer", agents[0] ?? "", "/x/reviewer.md");
    const instructions = texts.find((t) => t.startsWith("# Project rules")) ?? "";
    const shown = texts.find((t) => t.startsWith("You review code changes.")) ?? "";
    expect(composeSystemPrompt(agent.systemPrompt, instructions)).toBe(shown.trimEnd());
  });

  test("the quoted agent errors are the ones produced", () => {
    const home = mkdtempSync(join(root, "home-"));
    const dir = join(home, ".rienda", "agents");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "coder.md"), "---\ndescription: Writes code.\nmodel: gpt-4o\ntemperature: 0.2\n---\n");
    let message = "";
    try {
      loadAgent(home, "coder");
    } catch (error) {
      message = (error as Error).message;
    }
    const quoted = message.replaceAll(join(dir, "coder.md"), "/home/ana/.rienda/agents/coder.md");
    // Every line of a several-problem error is prefixed, as the command line prints it.
    expect(texts.join("\n")).toContain(
      `${quoted
        .split("\n")
        .map((line) => `rienda: ${line}`)
        .join("\n")}\n`,
    );

    writeFileSync(join(dir, "coder.md"), "---\ndescription: d\nmodel: p/m\n---\n");
    writeFileSync(join(dir, "reviewer.md"), "---\ndescription: d\nmodel: p/m\n---\n");
    expect(() => loadAgent(home, "writer")).toThrow('unknown agent "writer" (available: coder, reviewer)');
    expect(texts.join("\n")).toContain('rienda: unknown agent "writer" (available: coder, reviewer)\n');
  });
});
