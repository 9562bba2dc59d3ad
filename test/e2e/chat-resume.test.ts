/** Continuing sessions in the interactive chat: /resume, /new, -c and -s. */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";
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

type ChatMessage = { role: string; content: unknown };
const historyOf = (index: number): string[] =>
  (s!.server.requests[index]!.body as { messages: ChatMessage[] }).messages.map(
    (m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`,
  );

/** A session made by `rienda run`, as a user would have from earlier work. */
async function earlierSession(): Promise<string> {
  s!.server.script({ text: "Noted: banana." });
  const r = await s!.inst.run(["run", "-a", "coder", "-p", "remember the word banana"]);
  expect(r.code).toBe(0);
  return sessionIdFrom(r.stderr);
}

describe("resuming in the chat", () => {
  test("/sessions lists this workspace's sessions and /resume ID continues one with its history", async () => {
    s = await scenario();
    const id = await earlierSession();
    s.server.script({ text: "The word was banana." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/sessions");
    await term.waitFor(new RegExp(`${id} .* remember the word banana`));
    term.line("/resume nope");
    await term.waitFor('error: unknown session "nope"');
    term.line(`/resume ${id}`);
    await term.waitFor(`resumed session ${id}`);
    const recap = await term.waitForPrompt();
    expect(recap).toContain("> remember the word banana\nNoted: banana.");
    term.line("what was the word?");
    await term.waitForPrompt(1);

    expect(historyOf(1)).toEqual([
      "system: You are a test agent.",
      "user: remember the word banana",
      "assistant: Noted: banana.",
      "user: what was the word?",
    ]);
    expect(sessionFiles(s.inst.home)).toHaveLength(1);
    expect(messageEntries(sessionFile(s.inst.home, id)).map((e) => e.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  test("/resume without an ID offers the sessions to pick from", async () => {
    s = await scenario();
    const id = await earlierSession();
    s.server.script({ text: "Still banana." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/resume");
    await term.waitFor("? Resume which session?");
    term.keys("Enter");
    await term.waitFor(`resumed session ${id}`);
    await term.waitForPrompt();
    term.line("and now?");
    await term.waitForPrompt(1);
    expect(historyOf(1)).toContain("user: remember the word banana");
  });

  test("-c continues the latest session of the workspace and -s ID a given one", async () => {
    s = await scenario();
    const id = await earlierSession();
    s.server.script({ text: "Yes, banana." }, { text: "Banana again." });
    term = Terminal.start(s.inst, { args: ["-c"] });
    await term.waitFor(`resumed session ${id} (agent coder, model p/m)`);
    await term.waitForPrompt();
    term.line("do you remember?");
    await term.waitForPrompt(1);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    term.dispose();
    expect(historyOf(1)).toContain("user: remember the word banana");

    term = Terminal.start(s.inst, { args: ["-s", id] });
    await term.waitFor(`resumed session ${id}`);
    await term.waitForPrompt();
    term.line("once more");
    await term.waitForPrompt(1);
    expect(historyOf(2)).toEqual([
      "system: You are a test agent.",
      "user: remember the word banana",
      "assistant: Noted: banana.",
      "user: do you remember?",
      "assistant: Yes, banana.",
      "user: once more",
    ]);
    expect(sessionFiles(s.inst.home)).toHaveLength(1);
  });

  test("the recap shows an interrupted answer as far as it came, and a failed request as such, not the texts the model reads in their place", async () => {
    s = await scenario();
    s.server.script(
      { text: "this answer never finishes", hang: true },
      { error: { status: 400, message: "bad request" } },
      { text: "All good now." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("first try");
    await term.waitFor("\nthis");
    term.keys("C-c");
    await term.waitForPrompt(1);
    term.line("second try");
    await term.waitForPrompt(2);
    term.line("third try");
    await term.waitForPrompt(3);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    const id = /^session (\w+)$/m.exec(term.history())![1]!;
    term.dispose();

    term = Terminal.start(s.inst, { args: ["-s", id], env: { NO_COLOR: "1" } });
    const recap = await term.waitForPrompt();
    expect(recap).toContain(
      `resumed session ${id} (agent coder, model p/m)\n> first try\nthis\n(interrupted)\n> second try\nerror: the request failed\n> third try\nAll good now.\n`,
    );
    expect(recap).not.toContain("[The user interrupted");
    expect(recap).not.toContain("[This request failed");
  });

  test("the recap of a run a limit stopped says so, not the text the model reads in its place", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] });
    const run = await s.inst.run(["run", "-a", "coder", "-p", "keep going", "--max-turns", "1", "--json"]);
    const id = String(JSON.parse(run.stdout.split("\n")[0]!).sessionId);
    term = Terminal.start(s.inst, { args: ["-s", id], env: { NO_COLOR: "1" } });
    const recap = await term.waitForPrompt();
    expect(recap).toContain("> keep going\n");
    expect(recap).toContain("stopped: the run reached a limit\n");
    expect(recap).not.toContain("[This request was stopped");
  });

  test("/new starts a separate session with the next message", async () => {
    s = await scenario();
    s.server.script({ text: "one" }, { text: "two" });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("first conversation");
    await term.waitForPrompt(1);
    term.line("/new");
    await term.waitFor("new session: your next message starts it");
    term.line("second conversation");
    await term.waitForPrompt(2);
    expect(historyOf(1)).toEqual(["system: You are a test agent.", "user: second conversation"]);
    expect(sessionFiles(s.inst.home)).toHaveLength(2);
  });

  test("-c with no session and -s with an unknown one refuse to start", async () => {
    s = await scenario();
    term = Terminal.start(s.inst, { args: ["-c"] });
    expect(await term.exitCode()).toBe(1);
    expect(term.history()).toContain("rienda: no session to continue in this workspace");
    term.dispose();
    term = Terminal.start(s.inst, { args: ["-s", "01nosuchsession"] });
    expect(await term.exitCode()).toBe(1);
    expect(term.history()).toContain('rienda: unknown session "01nosuchsession"');
  });
});
