/** Ctrl-C in the interactive chat: interrupting a turn mid-tool, then going on; quitting. */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFiles } from "../support/session-reader.ts";
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const AUDIT = `module.exports = {
  afterRun(ctx, end) { ctx.file.write("runs.log", end.reason + "\\n", { append: true }); },
};
`;

describe("interrupting the chat", () => {
  test("Ctrl-C during a shell tool stops it, afterRun says interrupted, and the next turn goes on in the same session", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [audit]" });
    s.inst.hook("audit", AUDIT);
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "echo started; sleep 30 & echo $! > sleep.pid; wait" } }] },
      { text: "Picking up after the interrupt." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("run the slow thing");
    await term.waitFor("│ started");
    const pidFile = join(s.inst.workspace, "sleep.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the sleep to start",
    );
    const sleeper = Number(readFileSync(pidFile, "utf8").trim());
    term.keys("C-c");
    await term.waitForPrompt(1);
    await waitFor(() => !alive(sleeper), 5_000, "the sleep to be killed");
    expect(term.screen()).toContain("interrupted\n─ ");

    term.line("are you there?");
    const screen = await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);

    expect(screen).toContain("Picking up after the interrupt.");
    expect(readFileSync(join(s.inst.workspace, "runs.log"), "utf8")).toBe("interrupted\nend_turn\n");
    // The interrupted call got its result; the next request carries it and the new prompt.
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["the run was interrupted before this tool call finished"]);
    const files = sessionFiles(s.inst.home);
    expect(files).toHaveLength(1);
    const roles = messageEntries(files[0]!).map((e) => e.role);
    expect(roles).toEqual(["user", "assistant", "user", "user", "assistant"]);
  });

  test("Ctrl-C while the answer streams returns to the prompt", async () => {
    s = await scenario();
    s.server.script({ text: "this answer never finishes", hang: true }, { text: "Fresh answer." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("talk");
    await term.waitFor("this");
    term.keys("C-c");
    await term.waitForPrompt(1);
    term.line("again");
    const screen = await term.waitForPrompt(2);
    expect(screen).toContain("interrupted");
    expect(screen).toContain("Fresh answer.");
  });

  test("a second Ctrl-C cuts a subagent's afterRun hook short, as it cuts the agent's own, and the chat goes on", async () => {
    s = await scenario({ agentFrontmatter: "agents: [reviewer]\nhooks: [audit]" });
    s.inst.hook("audit", AUDIT);
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\nhooks: [slow-end]\n---\nYou review.\n");
    // Would never end on its own: only the second interrupt ends it.
    s.inst.hook(
      "slow-end",
      `module.exports = { afterRun(ctx, end) { ctx.file.write("child-after-run", end.reason); while (true) {} } };`,
    );
    s.server.script(
      { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { text: "the review never finishes", hang: true },
      { text: "Back again." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("get it reviewed");
    await s.server.waitForRequests(2);
    term.keys("C-c");
    const marker = join(s.inst.workspace, "child-after-run");
    await waitFor(
      () => existsSync(marker) && readFileSync(marker, "utf8") !== "",
      10_000,
      "the child's afterRun hook to start",
    );
    expect(readFileSync(marker, "utf8")).toBe("interrupted");
    term.keys("C-c");
    await term.waitForPrompt(1);
    expect(term.screen()).toContain("interrupted\n─ ");
    term.line("still there?");
    const screen = await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(screen).toContain("Back again.");
    // The second interrupt cut the parent's afterRun short too (it had not started); the next turn's ran. The call got its error result.
    expect(readFileSync(join(s.inst.workspace, "runs.log"), "utf8")).toBe("end_turn\n");
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["the run was interrupted before this tool call finished"]);
  });

  test("Ctrl-C clears typed text; twice at an empty prompt quits with exit 0", async () => {
    s = await scenario();
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.type("some draft");
    await term.waitFor("some draft");
    term.keys("C-c");
    await term.waitFor("some draft^C");
    term.keys("C-c");
    await term.waitFor("press Ctrl-C again to quit");
    term.keys("C-c");
    expect(await term.exitCode()).toBe(0);
    expect(s.server.requests).toHaveLength(0);
  });

  test("Ctrl-C pressed twice in quick succession (one read) quits, and keys typed on after Enter are not lost", async () => {
    s = await scenario();
    s.server.script({ text: "First answer." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    // One write: the message, Enter, and the start of the next one.
    term.type("first message\rnext draft");
    await term.waitFor("> next draft");
    expect(await term.waitFor("First answer.")).toContain("> first message\n");
    expect((s.server.requests[0]!.body as { messages: { content: unknown }[] }).messages.at(-1)!.content).toBe(
      "first message",
    );
    term.keys("C-u");
    await term.waitFor(() => /\n>$/.test(term!.screen()));
    term.keys("C-c", "C-c");
    expect(await term.exitCode()).toBe(0);
    expect(term.history()).toContain("(press Ctrl-C again to quit, or Ctrl-D)");
  });
});
