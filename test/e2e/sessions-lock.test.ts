/**
 * One rienda at a time per session: while a run has a session open, every
 * other run on it fails at once (exit 1, naming the pid and what to do); a
 * run killed with SIGKILL leaves a lock that the next run takes over.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";
import { Terminal } from "../support/tmux.ts";

// The chat tests need a terminal, a binary and a provider each: slow machines need room.
setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

function userPrompts(path: string): string[] {
  return messageEntries(path)
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      (m.blocks as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text!),
    );
}

describe("a session is written by one rienda at a time", () => {
  test("while one run has the session open, four more fail at once with exit 1 naming its pid; nothing of theirs is written", async () => {
    s = await scenario();
    s.server.script({ text: "first" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"])).stderr);
    s.server.script({ text: "held", hang: true });
    const holder = s.inst.start(["run", "-s", id, "-p", "two"]);
    await s.server.waitForRequests(2);
    const others = await Promise.all([1, 2, 3, 4].map((n) => s!.inst.run(["run", "-s", id, "-p", `other ${n}`])));
    for (const r of others) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`session ${id} is open in another rienda (pid ${holder.pid})`);
      expect(r.stderr).toContain("wait for it to finish or stop it");
    }
    expect(s.server.requests).toHaveLength(2);
    holder.kill("SIGINT");
    expect((await holder.done).code).toBe(130);
    const path = sessionFile(s.inst.home, id);
    expect(userPrompts(path)).toEqual(["one", "two"]);
    expect(existsSync(path.replace(/\.jsonl$/, ".lock"))).toBe(false);

    s.server.script({ text: "free again" });
    const after = await s.inst.run(["run", "-s", id, "-p", "three"]);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe("free again\n");
  });

  test("a run killed with SIGKILL leaves a stale lock that the next run takes over", async () => {
    s = await scenario();
    s.server.script({ text: "first" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"])).stderr);
    s.server.script({ text: "never", hang: true });
    const victim = s.inst.start(["run", "-s", id, "-p", "two"]);
    await s.server.waitForRequests(2);
    victim.kill("SIGKILL");
    await victim.done;
    const path = sessionFile(s.inst.home, id);
    expect(existsSync(path.replace(/\.jsonl$/, ".lock"))).toBe(true);
    s.server.script({ text: "recovered" });
    const next = await s.inst.run(["run", "-s", id, "-p", "three"]);
    expect(next.stderr).not.toContain("is open in another rienda");
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("recovered\n");
  });

  test("the chat and rienda run share the rule, both ways", async () => {
    s = await scenario();
    s.server.script({ text: "first" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"])).stderr);

    s.server.script({ text: "held", hang: true });
    const holder = s.inst.start(["run", "-s", id, "-p", "two"]);
    await s.server.waitForRequests(2);
    term = Terminal.start(s.inst, { args: ["-s", id] });
    expect(await term.exitCode()).toBe(1);
    expect(term.history()).toContain(`session ${id} is open in another rienda (pid ${holder.pid})`);
    term.dispose();
    holder.kill("SIGINT");
    await holder.done;

    term = Terminal.start(s.inst, { args: ["-s", id] });
    await term.waitForPrompt();
    const r = await s.inst.run(["run", "-s", id, "-p", "three"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`session ${id} is open in another rienda`);
    // Resuming the session the chat already has open is not a second writer.
    term.line(`/resume ${id}`);
    await term.waitFor(`resumed session ${id}`);
    await term.waitForPrompt();
    s.server.script({ text: "still here" });
    term.line("four");
    await term.waitFor("still here");
  });
});
