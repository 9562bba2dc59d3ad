/** ctx.confirm and ctx.notify in the interactive chat, through a real pseudo-terminal. */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
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

const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    ctx.log("checking the branch");
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) {
      return { text: "cancelled by the user", isError: true };
    }
    ctx.notify({ title: "publish", body: "branch pushed" });
    return "pushed";
  },
};
`;

const GUARD = `module.exports = {
  beforeToolExecute(ctx, call) {
    if (!ctx.confirm({ title: "Run " + call.name + "?", body: JSON.stringify(call.arguments) })) {
      return { allow: false, reason: "refused by the user" };
    }
  },
};
`;

describe("confirmations in the chat", () => {
  test("a subagent's ctx.confirm is asked in the chat, indented under its call, and its notice shown; the answer reaches the child", async () => {
    s = await scenario({ agentFrontmatter: "agents: [publisher]" });
    s.inst.agent("publisher", "---\ndescription: Publishes.\nmodel: p/m\ntools: [publish]\n---\nYou publish.\n");
    s.inst.tool("publish", PUBLISH);
    s.server.script(
      { toolCalls: [{ id: "p1", name: "agent__publisher", arguments: { prompt: "publish" } }] },
      { toolCalls: [{ id: "x1", name: "publish", arguments: {} }] },
      { text: "published it" },
      { text: "Done." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("get it published");
    await term.waitFor("[y/N]");
    // Under the subagent's call, as its tool line is.
    expect(term.screen()).toContain(
      "  • publish\n    │ checking the branch\n  ? Publish\n    Push the current branch?\n    [y/N]",
    );
    term.keys("y");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("! publish: branch pushed");
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["pushed"]);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["published it"]);
  });

  test("a tool's confirm answered yes, then one answered no; each waits for the answer", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script(
      { toolCalls: [{ name: "publish", arguments: {} }] },
      { text: "Published." },
      { toolCalls: [{ name: "publish", arguments: {} }] },
      { text: "Left alone." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("publish it");
    await term.waitFor("[y/N]");
    // The run waits on the question: no second request until it is answered.
    expect(s.server.requests).toHaveLength(1);
    expect(term.screen()).toContain("? Publish\n  Push the current branch?\n  [y/N]");
    expect(term.screen()).toContain("  │ checking the branch");
    term.keys("y");
    await term.waitForPrompt(1);
    term.line("publish again");
    await term.waitForCount("[y/N]", 2);
    term.keys("Enter");
    const screen = await term.waitForPrompt(2);

    expect(screen).toContain("[y/N] yes\n! publish: branch pushed");
    expect(screen).toContain("Published.");
    expect(screen).toContain("[y/N] no\n  ✗ cancelled by the user");
    expect(screen).toContain("Left alone.");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["pushed"]);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["pushed", "cancelled by the user"]);
  });

  test("Ctrl-C at a question answers no once and interrupts the turn; the chat goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ name: "publish", arguments: {} }] }, { text: "Still here." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("publish it");
    await term.waitFor("[y/N]");
    term.keys("C-c");
    await term.waitForPrompt(1);
    term.line("are you there?");
    const screen = await term.waitForPrompt(2);
    // One answer on the question's line; Ctrl-C read as a key did not print a second one.
    expect(screen).toContain(
      "  [y/N] no (interrupted)\n  ✗ the run was interrupted before this tool call finished\ninterrupted\n─ ",
    );
    expect(screen).toContain("Still here.");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["the run was interrupted before this tool call finished"]);
  });

  test("a hook's confirm answered no refuses the tool call", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook("guard", GUARD);
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "echo should-not-run" } }] },
      { text: "Understood." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("run something");
    await term.waitFor("? Run shell?");
    term.keys("n");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("⊘ hook guard refused the call: refused by the user");
    expect(screen).not.toContain("│ should-not-run");
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain("refused by the user");
  });

  test("keys typed on in the same instant as the answer are kept for the next message, not dropped", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ name: "publish", arguments: {} }] }, { text: "Published." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("publish it");
    await term.waitFor("[y/N]");
    // One write: the answer and the start of the next message.
    term.type("ynext one");
    await term.waitFor("Published.");
    const screen = await term.waitFor("> next one");
    expect(screen).toContain("[y/N] yes\n");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["pushed"]);
  });

  test("with -y confirmations answer yes without asking", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ name: "publish", arguments: {} }] }, { text: "Published." });
    term = Terminal.start(s.inst, { args: ["-a", "coder", "-y"] });
    await term.waitForPrompt();
    term.line("publish it");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("✓ Publish (approved by -y)");
    expect(screen).not.toContain("[y/N]");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["pushed"]);
  });
});
