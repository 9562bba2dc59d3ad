/**
 * Typing while the agent works in the full-screen chat (issue 42, on the
 * conversation's queue of issue 41), through tmux: Enter queues a
 * follow-up that runs after the turn, Ctrl-S steers a message into the
 * running turn before its next request, Esc takes the last queued message
 * back into the editor, and an interrupt gives every waiting one back.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import type { Terminal } from "../support/tmux.ts";
import { chatIdle, openFullScreen } from "../support/tui-chat.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

/** A shell call that waits until the file `go` exists, so the test decides when the tool round ends. */
const WAIT_FOR_GO = {
  toolCalls: [{ name: "shell", arguments: { command: "while [ ! -f go ]; do sleep 0.05; done; echo went" } }],
};

/** The user messages' texts of request `index` (Chat Completions). */
function userTexts(index: number): string[] {
  const body = s!.server.requests[index]!.body as { messages: { role: string; content: unknown }[] };
  return body.messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("typing while the agent works", () => {
  test("Ctrl-S steers into the running turn before its next request; Enter queues a follow-up that runs after it", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(WAIT_FOR_GO, { text: "Steered answer." }, { text: "Follow-up answer." });
    const t = (term = openFullScreen(s.inst, { args: ["-a", "coder"] }));
    await chatIdle(t);
    t.line("start");
    await t.waitFor("• $ while");
    t.type("mind the tests");
    t.keys("C-s");
    await t.waitFor("↳ steering: mind the tests");
    t.line("then summarise");
    await t.waitFor("↳ queued: then summarise");
    expect(t.screen()).toContain("Esc takes the last queued back");
    writeFileSync(join(s.inst.workspace, "go"), "");
    await chatIdle(t, 2);
    expect(s.server.requests).toHaveLength(3);
    // The steer went with the tool's result, before the second request; the follow-up was a turn of its own.
    expect(userTexts(1)).toEqual(["start", "mind the tests"]);
    expect(userTexts(2).at(-1)).toBe("then summarise");
    expect(t.screen()).not.toContain("↳ ");
    expect(t.history()).toContain("Follow-up answer.");
  });

  test("Esc takes the last queued message back into the editor; an interrupt gives the rest back, nothing sent", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(WAIT_FOR_GO, { text: "never asked" });
    const t = (term = openFullScreen(s.inst, { args: ["-a", "coder"] }));
    await chatIdle(t);
    t.line("start");
    await t.waitFor("• $ while");
    t.line("first queued");
    await t.waitFor("↳ queued: first queued");
    t.line("second queued");
    await t.waitFor("↳ queued: second queued");
    t.keys("Escape");
    await t.waitFor((screen) => !screen.includes("↳ queued: second queued"));
    expect(t.screen()).toContain("↳ queued: first queued");
    expect(t.screen()).toMatch(/second queued\s*$/m);
    // The turn goes on: Esc took a message back, it did not interrupt.
    expect(s.server.requests).toHaveLength(1);
    t.keys("C-c");
    await chatIdle(t, 1);
    expect(t.screen()).not.toContain("↳ ");
    // Both back in the editor, oldest first; nothing was sent after the interrupt.
    expect(t.screen()).toMatch(/first queued\n.*second queued/);
    expect(s.server.requests).toHaveLength(1);
  });
});
