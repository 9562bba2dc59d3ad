/**
 * The full-screen chat (docs/chat.md) through a real pseudo-terminal: tmux
 * types with send-keys and reads the screen with capture-pane. Screens
 * docs/chat.md shows are compared with what the terminal shows (ids and
 * durations aside); RIENDA_UPDATE_DOCS=1 writes them into the page instead.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import type { Terminal, TerminalOptions } from "../support/tmux.ts";
import { BUSY, chatIdle, matchesDocScreen, openFullScreen } from "../support/tui-chat.ts";

setDefaultTimeout(60_000);

const ME = "test/e2e/chat-tui.test.ts";
const DOC = "docs/chat.md";

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

function open(options: TerminalOptions): Terminal {
  term = openFullScreen(s!.inst, options);
  return term;
}

const idle = (t: Terminal, turns = 0) => chatIdle(t, turns);
const matchesDoc = (name: string, screen: string) => matchesDocScreen(DOC, ME, name, screen, s!.inst.workspace);

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

describe("the full-screen chat", () => {
  test("a conversation with a tool call: its live output shows while it runs, then the answer as markdown; the status line counts tokens", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]", modelExtra: "        context_window: 10000" });
    s.server.script(
      {
        text: "Let me run the tests.",
        toolCalls: [
          {
            name: "shell",
            arguments: { command: "echo 3 tests; while [ ! -f go ]; do sleep 0.05; done; echo all passed" },
          },
        ],
        usage: { input: 900, output: 60 },
      },
      {
        text: "## Result\n\nAll **3 tests** pass:\n\n- `parse`\n- `render`\n\n```sh\nmake test # again\n```\n",
        usage: { input: 1000, output: 40 },
      },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("run the tests");
    // Still running: the first line of output is there, the second not yet.
    await t.waitFor("│ 3 tests");
    expect(t.screen()).toMatch(BUSY);
    expect(t.screen()).toMatch(/ shell \d+\.\ds · Esc interrupts · Enter queues · Ctrl-S steers/);
    expect(t.history()).not.toContain("│ all passed");
    writeFileSync(join(s.inst.workspace, "go"), "");
    const screen = await idle(t, 1);
    expect(screen).toContain("• $ echo 3 tests;");
    expect(screen).toContain("  │ 3 tests\n  │ all passed\n");
    // Markdown: the heading without its marks, the list, the code block framed.
    expect(screen).toContain("Result\n\nAll 3 tests pass:\n\n- parse\n- render\n\n┌── sh\nmake test # again\n└──");
    expect(screen).toMatch(/1,900 in \/ 100 out/);
    // 1,040 tokens of the last request in a window of 10,000.
    expect(screen).toContain("context 10%");
    matchesDoc("tui-session", screen);
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
  });

  test("a confirmation answered yes, then one answered no, in place of the editor", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script(
      { toolCalls: [{ name: "publish", arguments: {} }] },
      { text: "Published." },
      { toolCalls: [{ name: "publish", arguments: {} }] },
      { text: "Left alone." },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("publish it");
    await t.waitFor("[y/N]");
    // The run waits on the question.
    expect(s.server.requests).toHaveLength(1);
    const question = t.screen();
    expect(question).toContain("? Publish\n  Push the current branch to origin?\n  [y/N]");
    matchesDoc("tui-confirm", question);
    t.keys("x"); // ignored
    t.keys("y");
    await idle(t, 1);
    expect(t.history()).toContain("[y/N] yes");
    expect(t.history()).toContain("! publish: main pushed to origin");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["pushed"]);
    t.line("publish again");
    await t.waitForCount("[y/N]", 2);
    t.keys("n");
    await idle(t, 2);
    expect(t.history()).toContain("[y/N] no");
    expect(t.history()).toContain("✗ cancelled by the user");
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["pushed", "cancelled by the user"]);
  });

  test("Esc mid-answer stops it with the partial text kept; Ctrl-C does too; the next message goes on", async () => {
    s = await scenario();
    s.server.script(
      { text: "this answer never finishes", hang: true },
      { text: "Fresh answer.", hang: true },
      { text: "Third." },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("talk");
    await t.waitFor("this");
    t.keys("Escape");
    let screen = await idle(t, 1);
    expect(screen).toContain("this\ninterrupted\n─ ");
    t.line("again");
    await t.waitFor("\nFresh");
    t.keys("C-c");
    screen = await idle(t, 2);
    expect(screen).toContain("Fresh\ninterrupted\n─ ");
    t.line("once more");
    screen = await idle(t, 3);
    expect(screen).toContain("Third.");
    expect(s.server.requests).toHaveLength(3);
  });

  test("a resize reflows the transcript: no line wider than the terminal, nothing left of the old frame", async () => {
    s = await scenario();
    const words = "The quick brown fox jumps over the lazy dog and keeps running far away. ".repeat(3).trim();
    s.server.script({ text: words });
    const t = open({ args: ["-a", "coder"], width: 100, height: 24 });
    await idle(t);
    t.line("tell me");
    let screen = await idle(t, 1);
    expect(screen.split("\n").some((line) => line.length > 80)).toBe(true);
    t.resize(50, 24);
    await t.waitFor(
      () =>
        t
          .screen()
          .split("\n")
          .every((line) => [...line].length <= 50) && t.screen().includes("agent coder"),
    );
    screen = t.screen();
    // Every word still there, in order, wrapped between words.
    expect(screen.replace(/\s+/g, " ")).toContain(words);
    expect(screen.match(/^agent coder · model p\/m/gm)).toHaveLength(1);
    t.resize(120, 24);
    await t.waitFor(() => t.screen().includes(words.slice(0, 110)));
    expect(t.screen().match(/^agent coder · model p\/m/gm)).toHaveLength(1);
  });

  test("pickers: /model and /agent with search, /resume of an earlier session", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-model" });
    s.inst.agent("planner", "---\ndescription: Plans the work.\nmodel: p/m\n---\nYou plan.\n");
    s.server.script({ text: "First." }, { text: "Second." });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("hello");
    await idle(t, 1);
    const first = /session ([0-9a-z]{26})/.exec(t.history())![1]!;
    t.line("/model");
    await t.waitFor("? Switch to which model?");
    t.type("oth");
    await t.waitFor(() => /❯ p\/other/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("model: p/other");
    t.line("/agent");
    await t.waitFor("? Switch to which agent?");
    t.type("plan");
    await t.waitFor(() => /❯ planner/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("agent: planner");
    expect(t.screen()).toContain("agent planner · model p/m");
    t.line("/new");
    await t.waitFor("new session: your next message starts it");
    t.line("a second conversation");
    await idle(t, 2);
    t.line("/resume");
    await t.waitFor("? Resume which session?");
    t.type("hello");
    await t.waitFor(
      () =>
        t.screen().includes(`(${first})`) &&
        t
          .screen()
          .split("\n")
          .filter((l) => l.includes("(01")).length === 1,
    );
    t.keys("Enter");
    await t.waitFor(`resumed session ${first}`);
    expect(t.history()).toContain(`resumed session ${first}`);
  });

  test("a branch from an earlier message: /tree picks it, the next message continues from there", async () => {
    s = await scenario();
    s.server.script({ text: "Answer one." }, { text: "Answer two." }, { text: "Answer three." });
    const t = open({ args: ["-a", "coder"], height: 30 });
    await idle(t);
    t.line("first question");
    await idle(t, 1);
    t.line("second question");
    await idle(t, 2);
    t.line("/tree");
    await t.waitFor("? Continue from which message?");
    t.type("Answer one");
    await t.waitFor(() => /❯ .*Answer one/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("your next message starts a new");
    t.line("another second question");
    await idle(t, 3);
    const texts = JSON.stringify(s.server.requests[2]!.body);
    expect(texts).toContain("first question");
    expect(texts).toContain("another second question");
    expect(texts).not.toContain("Answer two.");
  });

  test("@ completes workspace paths, leaving out what .gitignore names, and attaches the file", async () => {
    s = await scenario();
    s.inst.file("notes.txt", "milk, bread\n");
    s.inst.file("notes-secret.txt", "the password\n");
    s.inst.file(".gitignore", "notes-secret.txt\n");
    s.server.script({ text: "You need milk and bread." });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.type("what is in @note");
    await t.waitFor(() => t.screen().includes("notes.txt"));
    expect(t.screen()).not.toContain("notes-secret.txt");
    t.keys("Tab");
    await t.waitFor(() => t.screen().includes("what is in @notes.txt"));
    t.keys("Enter");
    const screen = await idle(t, 1);
    expect(screen).toContain("attached notes.txt (text,");
    const body = JSON.stringify(s.server.requests[0]!.body);
    expect(body).toContain("milk, bread");
    expect(body).not.toContain("the password");
  });

  test("without -a the agent is picked from a list; -c shows the last steps of the session continued", async () => {
    s = await scenario();
    s.inst.agent("planner", "---\ndescription: Plans the work.\nmodel: p/m\n---\nYou plan.\n");
    s.server.script({ text: "Planned." }, { text: "Again." });
    let t = open({ args: [] });
    await t.waitFor("? Which agent?");
    t.type("plan");
    await t.waitFor(() => /❯ planner — Plans the work\./.test(t.screen()));
    t.keys("Enter");
    await idle(t);
    expect(t.screen()).toMatch(/rienda \S+ · agent planner · model p\/m/);
    t.line("make a plan");
    await idle(t, 1);
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    t.dispose();
    t = open({ args: ["-c"] });
    await t.waitFor("resumed session");
    const screen = await idle(t);
    expect(screen).toContain("> make a plan\nPlanned.");
    expect(screen).toContain(`agent planner · model p/m · ${s.inst.workspace} · 0 in / 0 out`);
  });

  test("thinking collapsed, Ctrl-O shows it; a subagent's tool call nested under its call; cost and cache reads in the status line", async () => {
    s = await scenario({
      protocol: "anthropic",
      agentFrontmatter: "agents: [helper]",
      modelExtra: "        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 }",
    });
    s.inst.agent("helper", "---\ndescription: Helps.\nmodel: p/m\ntools: [shell]\n---\nYou help.\n");
    s.server.script(
      {
        thinking: "the user wants a count so I ask the helper",
        toolCalls: [{ id: "h1", name: "agent__helper", arguments: { prompt: "count" } }],
        usage: { input: 1000, output: 100, cacheRead: 4000 },
      },
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo from-the-helper" } }] },
      { text: "counted" },
      { text: "The helper counted.", usage: { input: 1000, output: 100 } },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("count it");
    const screen = await idle(t, 1);
    expect(screen).toMatch(/✻ thinking… 10 words/);
    expect(screen).not.toContain("so I ask the helper");
    // The helper's shell call is drawn under agent__helper, indented one more level.
    const lines = screen.split("\n");
    const parentLine = lines.findIndex((l) => l.startsWith("• agent__helper"));
    const childLine = lines.findIndex((l) => /^\s+• \$ echo from-the-helper$/.test(l));
    expect(parentLine).toBeGreaterThanOrEqual(0);
    expect(childLine).toBeGreaterThan(parentLine);
    expect(screen).toContain("The helper counted.");
    // Tokens of the whole chat, the helper's included, with the cache reads, and a cost.
    expect(screen).toMatch(
      /\nagent coder · model p\/m · \S+\n[\d,]+ in \/ [\d,]+ out \(cache 4,000 read \/ 0 written\) · \$0\.\d{3}$/,
    );
    t.keys("C-o");
    await t.waitFor(() => t.screen().includes("the user wants a count so I ask the helper"));
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
  });

  test("↑ at the editor brings back what was sent, Enter sends it again; a multi-line message keeps its lines", async () => {
    s = await scenario();
    s.server.script({ text: "First." }, { text: "Second." }, { text: "Third." });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("the very first message");
    await idle(t, 1);
    t.keys("Up");
    await t.waitFor(() => /\n────+\n\s*the very first message\s*\n────/.test(t.screen()));
    t.keys("Enter");
    await idle(t, 2);
    t.type("line one");
    t.keys("M-Enter");
    t.type("line two");
    t.keys("Enter");
    await idle(t, 3);
    const users = s.server.requests.map((r) => {
      const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages.filter(
        (m) => m.role === "user",
      );
      return JSON.stringify(messages.at(-1)!.content);
    });
    expect(users[0]).toContain("the very first message");
    expect(users[1]).toContain("the very first message");
    expect(users[2]).toContain("line one\\nline two");
  });

  test("a large paste is one block in the editor and is sent whole", async () => {
    s = await scenario();
    s.server.script({ text: "Got it." });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    const pasted = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join("\n");
    t.paste(pasted);
    await t.waitFor(() => /\[paste #1 \+40 lines\]/.test(t.screen()));
    t.keys("Enter");
    await idle(t, 1);
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain(pasted.replaceAll("\n", "\\n"));
  });

  test("SIGTERM ends the chat with 130, the turn running interrupted first", async () => {
    s = await scenario();
    s.server.script({ text: "never ends", hang: true });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("talk");
    await t.waitFor("never");
    t.signal("SIGTERM");
    expect(await t.exitCode()).toBe(130);
    expect(t.history()).toContain("interrupted");
  });

  test("Ctrl-C clears the editor, twice at an empty one quits; Ctrl-D at an empty one quits", async () => {
    s = await scenario();
    let t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.type("draft");
    await t.waitFor(() => t.screen().includes("draft"));
    t.keys("C-c");
    await t.waitFor(() => !t.screen().includes("draft"));
    t.keys("C-c");
    await t.waitFor("(press Ctrl-C again to quit, or Ctrl-D)");
    t.keys("C-c");
    expect(await t.exitCode()).toBe(0);
    t.dispose();
    t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.type("x");
    t.keys("C-d"); // not empty: deletes forward, nothing
    t.keys("BSpace");
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    expect(s.server.requests).toHaveLength(0);
  });

  test("--plain and TERM=dumb keep the line chat", async () => {
    s = await scenario();
    s.server.script({ text: "Plain answer." }, { text: "Dumb answer." });
    let t = open({ args: ["--plain", "-a", "coder"] });
    await t.waitForPrompt();
    t.line("hi");
    expect(await t.waitForPrompt(1)).toContain("Plain answer.");
    expect(t.screen()).not.toContain("agent coder · model p/m ·");
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    t.dispose();
    t = open({ args: ["-a", "coder"], env: { TERM: "dumb" } });
    await t.waitForPrompt();
    t.line("hi");
    expect(await t.waitForPrompt(1)).toContain("Dumb answer.");
    expect(t.screen()).not.toContain("agent coder · model p/m ·");
  });
});
