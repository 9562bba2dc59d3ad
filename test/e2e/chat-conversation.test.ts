/**
 * The interactive chat through a real pseudo-terminal (tmux) against the
 * scripted provider: turns, multi-line input, the agent picker, commands.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFiles } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

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
beforeAll(() => {
  if (!hasTmux()) throw new Error("these tests need tmux (apt-get install -y tmux)");
});

const AUDIT = `module.exports = {
  beforeRun(ctx, run) { ctx.file.write("runs.log", "before " + run.agentId + "\\n", { append: true }); },
  afterRun(ctx, end) { ctx.file.write("runs.log", "after " + end.reason + "\\n", { append: true }); },
};
`;

type ChatMessage = { role: string; content: unknown };
const messagesOf = (index: number): ChatMessage[] =>
  (s!.server.requests[index]!.body as { messages: ChatMessage[] }).messages;
const textOf = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

describe("rienda chat", () => {
  test("a conversation of two turns: streamed answers, usage lines, one session, hooks per turn", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [audit]" });
    s.inst.hook("audit", AUDIT);
    s.server.script(
      { text: "Hello! How can I help?", usage: { input: 120, output: 9 } },
      { text: "Paris is the capital of France.", usage: { input: 150, output: 8 } },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("hi there");
    await term.waitForPrompt(1);
    term.line("what is the capital of France?");
    const screen = await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);

    expect(screen).toContain("agent coder · model p/m");
    expect(screen).toContain("> hi there\n");
    expect(screen).toContain("Hello! How can I help?\n─ ");
    expect(screen).toContain("120 in / 9 out tokens");
    expect(screen).toContain("Paris is the capital of France.\n─ ");
    expect(screen).toContain("150 in / 8 out tokens");

    // The second request carries the first exchange: both turns are one conversation.
    expect(messagesOf(1).map((m) => `${m.role}: ${textOf(m)}`)).toEqual([
      "system: You are a test agent.",
      "user: hi there",
      "assistant: Hello! How can I help?",
      "user: what is the capital of France?",
    ]);
    const files = sessionFiles(s.inst.home);
    expect(files).toHaveLength(1);
    expect(screen).toContain(`session ${files[0]!.split("/").pop()!.replace(".jsonl", "")}`);
    expect(messageEntries(files[0]!).map((e) => e.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(readFileSync(join(s.inst.workspace, "runs.log"), "utf8")).toBe(
      "before coder\nafter end_turn\nbefore coder\nafter end_turn\n",
    );
  });

  test("opening and leaving the chat without a message writes no session", async () => {
    s = await scenario();
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.keys("C-c");
    await term.waitFor("press Ctrl-C again");
    term.keys("C-c");
    expect(await term.exitCode()).toBe(0);
    expect(sessionFiles(s.inst.home)).toEqual([]);
    expect(s.server.requests).toHaveLength(0);
  });

  test("multi-line input: a trailing backslash, Alt-Enter, and a pasted block keep their newlines", async () => {
    s = await scenario();
    s.server.script({ text: "one" }, { text: "two" });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("first line \\");
    term.type("second line");
    term.keys("M-Enter");
    term.line("third line");
    await term.waitForPrompt(1);
    term.paste("pasted one\npasted two\npasted three");
    await term.waitFor("pasted three");
    term.keys("Enter");
    await term.waitForPrompt(2);
    expect(textOf(messagesOf(0).at(-1)!)).toBe("first line \nsecond line\nthird line");
    expect(textOf(messagesOf(1).at(-1)!)).toBe("pasted one\npasted two\npasted three");
  });

  test("without -a an agent is picked from a list showing the descriptions", async () => {
    s = await scenario();
    s.inst.agent("writer", "---\ndescription: Writes prose for you.\nmodel: p/m\n---\nYou write.\n");
    s.server.script({ text: "A poem." });
    term = Terminal.start(s.inst);
    await term.waitFor("writer — Writes prose for you.");
    expect(term.screen()).toContain("coder — A test agent.");
    term.keys("Down");
    await term.waitFor("❯ writer");
    term.keys("Enter");
    await term.waitForPrompt();
    expect(term.screen()).toContain("agent writer · model p/m");
    term.line("write");
    await term.waitForPrompt(1);
    expect(messagesOf(0)[0]).toEqual({ role: "system", content: "You write." });
    const [file] = sessionFiles(s.inst.home);
    expect(readEntries(file!)[0]).toMatchObject({ kind: "header", agent: "writer", model: "p/m" });
  });

  test("leaving the agent picker with Esc exits 0 and writes nothing", async () => {
    s = await scenario();
    term = Terminal.start(s.inst);
    await term.waitFor("coder — A test agent.");
    term.keys("Escape");
    expect(await term.exitCode()).toBe(0);
    expect(term.history()).toContain("Which agent? (cancelled)");
    expect(sessionFiles(s.inst.home)).toEqual([]);
  });

  test("commands: /help, a hint for an unknown one, /tools, switches recorded in the session and refused when unknown", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]", modelExtra: "      m2:\n        id: wire-model-2" });
    s.inst.agent("writer", "---\ndescription: Writes prose.\nmodel: p/m\n---\nYou write.\n");
    s.server.script({ text: "first" }, { text: "second" });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/help");
    await term.waitFor("/resume [ID]");
    term.line("/sesions");
    await term.waitFor("unknown command /sesions: did you mean /sessions? /help lists the commands");
    term.line("/tools");
    await term.waitFor(/Tools of coder:\n {2}shell +Runs one shell command/);
    term.line("hello");
    await term.waitForPrompt(1);
    term.line("/agent ghost");
    await term.waitFor('error: unknown agent "ghost"');
    term.line("/model p/nope");
    await term.waitFor('error: unknown model "nope" in provider "p"');
    term.line("/agent writer");
    await term.waitFor("agent: writer (model p/m)");
    term.line("/model p/m2");
    await term.waitFor("model: p/m2");
    term.line("again");
    await term.waitForPrompt(2);
    term.line("/exit");
    expect(await term.exitCode()).toBe(0);

    const second = s.server.requests[1]!.body as { model: string; messages: ChatMessage[] };
    expect(second.model).toBe("wire-model-2");
    expect(second.messages[0]).toEqual({ role: "system", content: "You write." });
    const [file] = sessionFiles(s.inst.home);
    const switches = readEntries(file!).filter((e) => e.kind === "agent" || e.kind === "model");
    expect(switches.map((e) => [e.kind, e.agentId ?? e.modelRef])).toEqual([
      ["agent", "writer"],
      ["model", "p/m2"],
    ]);
  });
});
