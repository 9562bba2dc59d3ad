/** The agent examples of the specification pages load verbatim, as the Go Rienda's agents would. */
import { describe, expect, test } from "bun:test";
import { parseAgent, toAgentInfo } from "../../src/agents/index.ts";

describe("agents from tools.md and hooks.md", () => {
  test("the tools.md agent (frontmatter only, no body) loads", () => {
    const text = "---\ndescription: A careful agent.\nmodel: openai/gpt-4o\ntools:\n  - word-count\n---\n";
    expect(toAgentInfo(parseAgent("careful", text, "/h/.rienda/agents/careful.md"))).toEqual({
      name: "careful",
      description: "A careful agent.",
      model: "openai/gpt-4o",
      tools: ["word-count"],
      hooks: [],
      skills: [],
      agents: [],
      config: {},
      systemPrompt: "",
    });
  });

  test("the hooks.md agent keeps its hooks in execution order", () => {
    const text =
      "---\ndescription: A careful agent.\nmodel: openai/gpt-4o\ntools: [shell]\nhooks: [guard, audit]\n---\n";
    const agent = parseAgent("careful", text, "/h/.rienda/agents/careful.md");
    expect([agent.tools, agent.hooks]).toEqual([["shell"], ["guard", "audit"]]);
  });

  test("a Go-era agent with a long Markdown body and Windows line ends loads", () => {
    const text = [
      "---",
      "description: Reviews pull requests.",
      "model: anthropic/sonnet",
      "tools:",
      "  - shell",
      "config:",
      "  shell:",
      "    timeout_ms: 60000",
      "---",
      "",
      "# Reviewer",
      "",
      "- Be specific.",
      "- Quote the line.",
      "",
    ].join("\r\n");
    const agent = parseAgent("reviewer", text, "/h/.rienda/agents/reviewer.md");
    expect(agent.systemPrompt).toBe("# Reviewer\n\n- Be specific.\n- Quote the line.");
    expect(agent.config).toEqual({ shell: { timeout_ms: 60000 } });
  });
});
