/** How the chat looks: colours only when allowed, clean wrapping in a narrow terminal. */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { Terminal } from "../support/tmux.ts";

// A terminal, a binary and a provider per test: slow machines need room.
setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

/** Select Graphic Rendition sequences: colours, bold, dim. */
const SGR = /\u001b\[[0-9;]*m/;

describe("the chat's display", () => {
  for (const noColor of [true, false]) {
    test(
      noColor ? "NO_COLOR: no colour or style sequence is written" : "without NO_COLOR the chat is styled",
      async () => {
        s = await scenario({ agentFrontmatter: "tools: [shell]" });
        s.server.script({ toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] }, { text: "Said hi." });
        term = Terminal.start(s.inst, {
          args: ["-a", "coder"],
          env: noColor ? { NO_COLOR: "1" } : { NO_COLOR: undefined },
        });
        term.record();
        await term.waitForPrompt();
        term.line("say hi");
        await term.waitForPrompt(1);
        expect(term.screen()).toContain("• shell");
        expect(SGR.test(term.recorded())).toBe(!noColor);
      },
    );
  }

  test("a subagent's tool lines and output are indented under its call; its words are not shown", async () => {
    s = await scenario({ agentFrontmatter: "agents: [reviewer]" });
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\ntools: [shell]\n---\nYou review.\n");
    s.server.script(
      { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "check" } }] },
      {
        text: "reviewer-narrates",
        toolCalls: [{ id: "s1", name: "shell", arguments: { command: "echo checked-it" } }],
      },
      { text: "reviewer-answer" },
      { text: "All checked." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("check it");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain(
      '• agent__reviewer {"prompt":"check"}\n  • shell {"command":"echo checked-it"}\n    │ checked-it\n  ✓ reviewer-answer\nAll checked.',
    );
    expect(screen).not.toContain("reviewer-narrates");
  });

  test("the turn's end line gives its cost when the model's prices are known, and none without them", async () => {
    s = await scenario({ modelExtra: "        cost: { input: 3, output: 15 }" });
    // 1,000,000 tokens in at $3 and 100,000 out at $15: $4.50 for the turn.
    s.server.script({ text: "Priced.", usage: { input: 1_000_000, output: 100_000 } });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("how much?");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("─ ");
    expect(screen).toMatch(/─ \d+\.\ds · 1,000,000 in \/ 100,000 out tokens · \$4\.50\n/);
    term.dispose();
    await s.dispose();

    s = await scenario();
    s.server.script({ text: "Unpriced." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("and now?");
    expect(await term.waitForPrompt(1)).toMatch(/─ \d+\.\ds · 12 in \/ 7 out tokens\n/);
  });

  test("a narrow terminal wraps answers and tool output between words", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const words =
      "Rienda keeps every conversation in an append-only file so that nothing is ever lost, even when the terminal is only thirty-two columns wide.";
    s.server.script({ toolCalls: [{ name: "shell", arguments: { command: `echo "${words}"` } }] }, { text: words });
    term = Terminal.start(s.inst, { args: ["-a", "coder"], width: 32 });
    await term.waitForPrompt();
    term.line("explain");
    const screen = await term.waitForPrompt(1);
    const lines = screen.split("\n");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(32);
    const answer = lines.slice(
      lines.findIndex((l) => l.startsWith("Rienda keeps")),
      lines.findIndex((l) => l.startsWith("─ ")),
    );
    expect(answer.join(" ")).toBe(words);
    const output = lines.filter((l) => l.startsWith("  │ ")).map((l) => l.slice(4));
    expect(output.join(" ")).toBe(words);
  });
});
