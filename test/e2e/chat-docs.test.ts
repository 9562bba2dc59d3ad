/**
 * The chat sessions docs/chat.md shows, played again in a real terminal
 * (tmux, 80 columns) against the scripted provider and compared line for
 * line. Only what differs on every run is normalised: session ids, turn
 * durations, the date of /sessions and the version.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { markedBlock } from "../support/doc-blocks.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

const ME = "test/e2e/chat-docs.test.ts";
const DOC = "docs/chat.md";

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

/** What changes from run to run, written one way. */
function normalise(screen: string): string {
  return screen
    .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, "<id>")
    .replace(/^─ \d+\.\ds/gm, "─ 0.0s")
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, "<date>")
    .replace(/^rienda \d+\.\d+\.\d+\S* ·/m, "rienda <version> ·");
}

const PUBLISH = `module.exports = {
  description: "Pushes the current branch to origin, after asking.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch to origin?" })) return { text: "cancelled by the user", isError: true };
    ctx.notify({ title: "publish", body: "main pushed to origin" });
    return "pushed";
  },
};
`;

describe("docs/chat.md", () => {
  test("chat-session", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario({ agentFrontmatter: "tools: [shell, publish]" });
    s.inst.tool("publish", PUBLISH);
    s.inst.file("notes.txt", "milk, bread\ncall the plumber\n");
    s.inst.file("todo.md", "- ship the chat\n");
    s.server.script(
      {
        thinking: "The user asks what files are here, so listing the workspace with ls answers it.",
        toolCalls: [{ name: "shell", arguments: { command: "ls -1" } }],
        usage: { input: 400, output: 40 },
      },
      {
        text: "The workspace has two files: `notes.txt` (a shopping and call list) and `todo.md` (one task: ship the chat).",
        usage: { input: 492, output: 29 },
      },
      { toolCalls: [{ name: "publish", arguments: {} }], usage: { input: 540, output: 11 } },
      { text: "Done: the branch is on origin.", usage: { input: 550, output: 10 } },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"], width: 80, height: 60 });
    await term.waitForPrompt();
    term.line("what is in this workspace?");
    await term.waitForPrompt(1);
    term.line("publish the branch");
    await term.waitFor("[y/N]");
    term.keys("y");
    await term.waitForPrompt(2);
    term.line("/sessions");
    await term.waitFor((t) => t.includes("worksp…") && /\n>$/.test(t));
    expect(normalise(term.history())).toBe(normalise(markedBlock(DOC, ME, "chat-session").trimEnd()));
  });

  test("chat-interrupted", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      {
        text: "Running the test suite now.",
        toolCalls: [{ name: "shell", arguments: { command: "echo running 212 tests; sleep 30" } }],
        usage: { input: 300, output: 20 },
      },
      { text: "Understood, I stopped. Which test should I run instead?", usage: { input: 350, output: 14 } },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"], width: 80, height: 60 });
    await term.waitForPrompt();
    term.line("run the tests");
    await term.waitFor("│ running 212 tests");
    term.keys("C-c");
    await term.waitForPrompt(1);
    term.line("stop, that takes too long");
    await term.waitForPrompt(2);
    term.keys("C-c");
    await term.waitFor("(press Ctrl-C again to quit, or Ctrl-D)\n>");
    const shown = normalise(markedBlock(DOC, ME, "chat-interrupted").trimEnd());
    const screen = normalise(term.history());
    // The block starts at the first message: the banner above it is the first block's.
    expect(screen.slice(screen.indexOf("> run the tests"))).toBe(shown);
  });
});
