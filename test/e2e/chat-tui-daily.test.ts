/**
 * The full-screen chat as a daily driver (issue 42), through tmux: the
 * activity line while the agent works, calls and hooks in their order,
 * copying, the scrollback kept through a resize, the keys that open
 * commands, /help and /hotkeys, and the status line's directory and branch.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import type { Terminal, TerminalOptions } from "../support/tmux.ts";
import { BUSY, chatIdle, matchesDocScreen, openFullScreen } from "../support/tui-chat.ts";

setDefaultTimeout(60_000);

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

describe("while the agent works", () => {
  test("the activity line names the phase with its time; a shell call reads $ command; colour codes are dropped; exit says how to come back", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      {
        toolCalls: [
          {
            name: "shell",
            arguments: { command: "printf '\\033[32mgreen\\033[0m\\n'; while [ ! -f go ]; do sleep 0.05; done" },
          },
        ],
      },
      { text: "Done." },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("colours");
    await t.waitFor("│ green");
    await t.waitFor(() => / shell \d+\.\ds · Esc interrupts · Enter queues · Ctrl-S steers$/m.test(t.screen()));
    expect(t.screen()).toMatch(BUSY);
    matchesDocScreen("docs/chat.md", "test/e2e/chat-tui-daily.test.ts", "tui-working", t.screen(), s.inst.workspace);
    expect(t.screen()).toContain("• $ printf '\\033[32mgreen");
    expect(t.screen()).toContain("  │ green\n");
    writeFileSync(join(s.inst.workspace, "go"), "");
    const screen = await idle(t, 1);
    expect(screen).toContain("  │ green\n");
    const id = /session ([0-9a-z]{26})/.exec(t.history())![1]!;
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    expect(t.history()).toContain(`to continue this conversation: rienda -s ${id}`);
  });

  test("a hook's question comes under the call it is about, with one hint; its refusal goes under the call", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook(
      "guard",
      `module.exports = { beforeToolExecute(ctx, call) {
        if (call.arguments.command.startsWith("rm")) return { allow: false, reason: "no rm here" };
        if (!ctx.confirm({ title: "Run it?", body: call.arguments.command })) return { allow: false, reason: "the user said no" };
      } };`,
    );
    s.server.script(
      {
        toolCalls: [
          { name: "shell", arguments: { command: "rm -rf build" } },
          { name: "shell", arguments: { command: "echo fine" } },
        ],
      },
      { text: "Ok." },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("clean up");
    await t.waitFor("[y/N]");
    const question = t.screen();
    // Both calls drawn, the refusal under the first; the question about the second below them.
    expect(question).toMatch(
      /• \$ rm -rf build\n {2}⊘ hook guard refused the call: no rm here\n {2}✗ [^\n]*\n• \$ echo fine\n─+\n\? Run it\?\n {2}echo fine\n/,
    );
    // One hint: the question's own keys; nothing says Esc interrupts.
    expect(question).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for your answer$/m);
    expect(question).not.toContain("Esc interrupts");
    t.keys("y");
    await idle(t, 1);
    expect(toolResultsOf(s.server.requests[1]!)[1]).toContain("fine");
  });
});

describe("copying and reading", () => {
  test("/copy puts the last answer, or a code block picked from a list, on the clipboard (OSC 52); code blocks have no gutter", async () => {
    s = await scenario();
    s.server.script({ text: "Run this:\n\n```sh\nmake test\nmake lint\n```\n\nand then:\n\n```\nls\n```\n" });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("how?");
    const screen = await idle(t, 1);
    expect(screen).toContain("┌── sh\nmake test\nmake lint\n└──");
    t.line("/copy");
    await t.waitFor("? Copy what?");
    t.keys("Down");
    t.keys("Enter");
    await t.waitFor("copied code block 1 (2 lines)");
    expect(t.clipboard()).toBe("make test\nmake lint");
    t.line("/copy answer");
    await t.waitFor("copied the last answer");
    expect(t.clipboard()).toStartWith("Run this:\n\n```sh\nmake test");
    t.line("/copy 3");
    await t.waitFor("the last answer has 2 code blocks");
  });

  test("/copy in a terminal known not to take OSC 52 says so and copies nothing", async () => {
    s = await scenario();
    s.server.script({ text: "Some answer." });
    const t = open({ args: ["-a", "coder"], env: { NO_COLOR: "1", TERM_PROGRAM: "Apple_Terminal" } });
    await idle(t);
    t.line("hi");
    await idle(t, 1);
    t.line("/copy");
    await t.waitFor("nothing copied: Apple's Terminal does not take OSC 52; select the text with the");
    expect(t.clipboard()).toBe("");
  });

  test("a resize keeps what the terminal held before rienda started", async () => {
    s = await scenario();
    s.server.script({ text: "An answer." });
    const t = open({ args: ["-a", "coder"], before: "echo 'from before rienda'" });
    await idle(t);
    t.line("hi");
    await idle(t, 1);
    t.resize(60, 20);
    await t.waitFor(
      () =>
        t
          .screen()
          .split("\n")
          .every((line) => [...line].length <= 60) && t.screen().includes("agent coder"),
    );
    t.resize(80, 24);
    await t.waitFor(() => t.screen().includes("agent coder · model p/m · "));
    expect(t.history()).toContain("from before rienda");
  });
});

describe("keys and discovery", () => {
  test("/hotkeys lists this screen's keys, /help the commands and the keys; Ctrl-X m, Ctrl-P and Ctrl-T open their lists", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-model" });
    s.server.script({ text: "First." });
    const t = open({ args: ["-a", "coder"], height: 40 });
    await idle(t);
    t.line("/hotkeys");
    await t.waitFor("Ctrl-X then a/m/t");
    expect(t.history()).toContain("Ctrl-O");
    expect(t.history()).toContain("while the agent works: interrupts it");
    t.line("/help");
    await t.waitFor(() => t.history().split("Commands:").length === 2 && t.history().includes("/hotkeys"));
    expect(t.history()).not.toContain("at the end of a line");
    t.type("draft kept");
    t.keys("C-x");
    t.keys("m");
    await t.waitFor("? Switch to which model?");
    t.type("oth");
    t.keys("Enter");
    await t.waitFor("model: p/other");
    // The draft is still in the editor.
    await t.waitFor(() => /\n─+\n draft kept\s*\n─+/.test(t.screen()));
    t.keys("C-u");
    t.keys("C-p");
    await t.waitFor("? Which command?");
    t.type("thinking");
    t.keys("Enter");
    await t.waitFor("? Thinking level of p/other?");
    t.keys("Escape");
    // Esc and a letter at once would read as Alt and the letter.
    await t.waitFor("✗ Thinking level of p/other? (cancelled)");
    t.line("hello");
    await idle(t, 1);
    t.keys("C-t");
    await t.waitFor("? Continue from which message?");
    // A message's time and first words, not its 26-character id.
    expect(t.screen()).toMatch(/\d\d-\d\d \d\d:\d\d {2}.*hello/);
    expect(t.screen()).toContain("  * ");
    expect(t.screen().slice(t.screen().indexOf("? Continue"))).not.toMatch(/\b[0-9a-hjkmnp-tv-z]{26}\b/);
    t.keys("Escape");
    await idle(t, 1);
  });

  test("the start-up agent picker takes j/k and a number; the status line shows the directory and its git branch", async () => {
    s = await scenario();
    s.inst.agent("planner", "---\ndescription: Plans the work.\nmodel: p/m\n---\nYou plan.\n");
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\n---\nYou review.\n");
    mkdirSync(join(s.inst.workspace, ".git"));
    writeFileSync(join(s.inst.workspace, ".git/HEAD"), "ref: refs/heads/topic\n");
    let t = open({ args: [] });
    await t.waitFor("? Which agent?");
    t.keys("j");
    await t.waitFor(() => /❯ planner/.test(t.screen()));
    t.keys("k");
    await t.waitFor(() => /❯ coder/.test(t.screen()));
    t.keys("3");
    const screen = await idle(t);
    expect(screen).toContain(`agent reviewer · model p/m · ${s.inst.workspace} (topic) · 0 in / 0 out`);
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    t.dispose();
    t = open({ args: [] });
    await t.waitFor("? Which agent?");
    t.type("plan");
    await t.waitFor(() => /❯ planner/.test(t.screen()) && !t.screen().includes("reviewer —"));
    t.keys("Enter");
    expect(await idle(t)).toContain("agent planner");
  });

  test("Ctrl-G edits the message in $EDITOR; what it saved is in the editor, not sent", async () => {
    s = await scenario();
    s.server.script({ text: "Got it." });
    const script = join(s.inst.root, "fake-editor.sh");
    writeFileSync(script, '#!/bin/sh\nprintf "%s and more from the editor\\n" "$(cat "$1")" > "$1"\n');
    chmodSync(script, 0o755);
    const t = open({ args: ["-a", "coder"], env: { NO_COLOR: "1", EDITOR: script } });
    await idle(t);
    t.type("typed here");
    t.keys("C-g");
    await t.waitFor(() => t.screen().includes("typed here and more from the editor"));
    expect(s.server.requests).toHaveLength(0);
    t.keys("Enter");
    await idle(t, 1);
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("typed here and more from the editor");
  });

  test("a tall picker closing on a full screen leaves the editor and the status line at the bottom, the context share kept", async () => {
    const models = Array.from({ length: 30 }, (_, i) => `      model${i}:\n        id: wire-${i}`).join("\n");
    s = await scenario({ modelExtra: `        context_window: 1000\n${models}` });
    s.server.script({
      text: Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n\n"),
      usage: { input: 300, output: 100 },
    });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("fill the screen");
    await idle(t, 1);
    t.line("/model");
    await t.waitFor("? Switch to which model?");
    t.keys("Escape");
    await t.waitFor("(cancelled)");
    const rows = t.screen().split("\n");
    expect(rows).toHaveLength(24);
    expect(rows.at(-2)).toStartWith("agent coder · model p/m · ");
    // A cancelled picker changed nothing: the last request's share of the window is still shown.
    expect(rows.at(-1)).toBe("context 40%");
    t.line("/resume");
    await t.waitFor("? Resume which session?");
    t.keys("Escape");
    await t.waitFor("✗ Resume which session? (cancelled)");
    expect(t.screen()).toEndWith("\ncontext 40%");
  });

  test("/model, /agent and /thinking complete their argument; the model list names the providers that need a key, and how to add one", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-model" });
    s.inst.agent("planner", "---\ndescription: Plans the work.\nmodel: p/m\n---\nYou plan.\n");
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.type("/model oth");
    await t.waitFor(() => /\n\s*→?\s*p\/other/.test(t.screen()));
    t.keys("Tab");
    await t.waitFor(() => / \/model p\/other\s*\n/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("model: p/other");
    t.type("/agent pla");
    await t.waitFor(() => t.screen().includes("planner"));
    t.keys("Tab");
    await t.waitFor(() => / \/agent planner\s*\n/.test(t.screen()));
    t.keys("C-u");
    t.line("/model");
    await t.waitFor("? Switch to which model?");
    // The built-in opencode-go module has no key in this HOME: its line says how to add one.
    t.type("opencode needs");
    await t.waitFor(() => /❯ opencode-go\/… needs a key: rienda auth opencode-go/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("opencode-go's models need a key: store one with rienda auth opencode-go");
    expect(t.screen()).toContain("agent coder · model p/other · ");
  });

  test("!command runs in the workspace, its output shown and sent with the next message; /rename names the session", async () => {
    s = await scenario();
    s.inst.file("todo.md", "ship the chat\n");
    s.server.script({ text: "One task." });
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line("!cat todo.md");
    await t.waitFor("its output goes with your next message");
    expect(t.screen()).toContain("> !cat todo.md\n• $ cat todo.md\n  │ ship the chat\n");
    expect(s.server.requests).toHaveLength(0);
    t.line("what is left?");
    await idle(t, 1);
    const sent = JSON.stringify(s.server.requests[0]!.body);
    expect(sent).toContain("I ran `cat todo.md` in the workspace (exit 0); it printed:");
    expect(sent).toContain("ship the chat");
    expect(sent).toContain("what is left?");
    t.line("/rename the todo list");
    await t.waitFor('is now "the todo list"');
    t.line("/sessions");
    await t.waitFor(() => t.screen().includes("the todo list") && t.screen().includes("> /sessions"));
  });

  test("an image's path in the message attaches it; Ctrl-V attaches the clipboard's image (wl-paste)", async () => {
    s = await scenario();
    // A 1x1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const shot = join(s.inst.root, "screen shot.png");
    writeFileSync(shot, png);
    const bin = join(s.inst.root, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "wl-paste"),
      `#!/bin/sh\nif [ "$1" = --list-types ]; then echo image/png; else cat '${join(s.inst.root, "screen shot.png")}'; fi\n`,
    );
    chmodSync(join(bin, "wl-paste"), 0o755);
    s.server.script({ text: "A pixel." }, { text: "Another pixel." });
    const t = open({ args: ["-a", "coder"], env: { NO_COLOR: "1", PATH: `${bin}:${process.env.PATH}` } });
    await idle(t);
    t.line(`what is in '${shot}'`);
    await idle(t, 1);
    expect(t.history()).toContain(`attached ${shot} (image,`);
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain(png.toString("base64"));
    t.keys("C-v");
    await t.waitFor("attached the clipboard's image (image,");
    t.line("and this?");
    await idle(t, 2);
    expect(JSON.stringify(s.server.requests[1]!.body).split(png.toString("base64")).length).toBe(3);
  });

  test("/compact condenses the conversation now and says so", async () => {
    s = await scenario({
      modelExtra: "        context_window: 100000",
      configExtra: "compaction: { keep_recent_tokens: 50 }",
    });
    s.server.script(
      { text: `first answer ${"y".repeat(400)}`, usage: { input: 850, output: 100 } },
      { text: "second answer" },
      { text: "SUMMARY: a first question." },
    );
    const t = open({ args: ["-a", "coder"] });
    await idle(t);
    t.line(`first question ${"x".repeat(400)}`);
    await idle(t, 1);
    t.line("second question");
    await idle(t, 2);
    t.line("/compact");
    await t.waitFor("compacted the conversation");
    expect(t.history()).toContain("! compacting the conversation: p/m is condensing");
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("x".repeat(400));
  });

  test("Ctrl-Z hands the terminal back to the shell; fg brings the chat back, drawn again, the draft kept", async () => {
    s = await scenario();
    // A shell with job control that continues the chat as soon as it stops.
    // (The redraw clears the screen the shell wrote on: the shell leaves its mark in a file.)
    const mark = join(s.inst.root, "the-shell-had-the-terminal");
    const t = open({ args: ["-a", "coder"], before: "set -m", after: `touch '${mark}'; fg >/dev/null` });
    await idle(t);
    t.type("a draft");
    await t.waitFor(() => t.screen().includes("a draft"));
    t.keys("C-z");
    await t.waitFor(() => existsSync(mark));
    await t.waitFor(() => /\n─+\n a draft\s*\n─+\nagent coder/.test(t.screen()));
    t.keys("C-u");
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
  });
});
