/**
 * After Ctrl-C, the next prompt on the same session is a message of its own,
 * and the model is told that the first request was interrupted, in every
 * wire protocol. The interruption is an entry of the session file.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Role and text of each message of a request, whatever the protocol. */
function turnsOf(body: unknown): { role: string; text: string }[] {
  const b = body as { messages?: unknown[]; input?: unknown[] };
  const items = (b.input ?? b.messages ?? []) as { role?: string; content?: unknown }[];
  return items
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => ({ role: m.role!, text: textOf(m.content) }));
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .join("");
}

describe("an interrupted prompt", () => {
  for (const protocol of PROTOCOLS) {
    test(`is shown as interrupted and the next prompt is a separate message (${protocol})`, async () => {
      s = await scenario({ protocol });
      // Only the opening event: nothing of the answer reaches the client before the interrupt.
      s.server.script({ text: "Deleting", hang: true, hangAfter: 1 });
      const run = s.inst.start(["run", "-a", "coder", "-p", "delete every file"]);
      await s.server.waitForRequests(1);
      run.kill("SIGINT");
      const r = await run.done;
      expect(r.code).toBe(130);
      const id = sessionIdFrom(r.stderr);
      const entries = readEntries(sessionFile(s.inst.home, id));
      const prompt = entries.find((e) => e.kind === "message")!;
      expect(entries.find((e) => e.kind === "interruption")).toMatchObject({ parentId: prompt.id });

      s.server.script({ text: "ok, nothing deleted" });
      const next = await s.inst.run(["run", "-s", id, "-p", "never mind"]);
      expect(next.code).toBe(0);
      const turns = turnsOf(s.server.requests[1]!.body);
      expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
      expect(turns[0]!.text).toBe("delete every file");
      expect(turns[1]!.text).toContain("interrupted");
      expect(turns[2]!.text).toBe("never mind");
    });
  }
});

describe("a prompt whose run failed", () => {
  for (const protocol of PROTOCOLS) {
    test(`is shown as failed and the next prompt is a separate message (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ error: { status: 400, message: "bad request" } });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "delete every file"]);
      expect(r.code).toBe(1);
      const id = sessionIdFrom(r.stderr);
      const entries = readEntries(sessionFile(s.inst.home, id));
      const prompt = entries.find((e) => e.kind === "message")!;
      expect(entries.find((e) => e.kind === "interruption")).toMatchObject({ parentId: prompt.id, reason: "error" });

      s.server.script({ text: "ok, nothing deleted" });
      const next = await s.inst.run(["run", "-s", id, "-p", "never mind"]);
      expect(next.code).toBe(0);
      const turns = turnsOf(s.server.requests[1]!.body);
      expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
      expect(turns[0]!.text).toBe("delete every file");
      expect(turns[1]!.text).toBe(
        "[This request failed before it was finished: the run ended with an error. What follows is a new message.]",
      );
      expect(turns[2]!.text).toBe("never mind");
    });
  }
});

describe("a run interrupted before its prompt is stored", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`${signal} during the beforeRun hooks leaves no session behind`, async () => {
      s = await scenario({ agentFrontmatter: "hooks: [slow-start]" });
      const marker = join(s.inst.root, "before-run-started");
      const afterRun = join(s.inst.root, "after-run");
      s.inst.hook(
        "slow-start",
        `const fs = require("node:fs");
        module.exports = {
          beforeRun(ctx) { fs.writeFileSync(${JSON.stringify(marker)}, ctx.session.id); ctx.sleep(60000); },
          afterRun(ctx, info) { fs.writeFileSync(${JSON.stringify(afterRun)}, info.reason); },
        };`,
      );
      const run = s.inst.start(["run", "-a", "coder", "-p", "hello"], { killAfterMs: 20_000 });
      await waitFor(() => existsSync(marker), 15_000, "the beforeRun hook to start");
      run.kill(signal);
      const r = await run.done;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain("rienda: the run was interrupted");
      expect(s.server.requests).toHaveLength(0);
      // The hooks saw the run end as interrupted...
      expect(readFileSync(afterRun, "utf8")).toBe("interrupted");
      // ...and no file of it is left, so nothing is listed: the session received nothing.
      expect(sessionFiles(s.inst.home)).toEqual([]);
      const listed = await s.inst.run(["sessions"]);
      expect(listed.stdout).toBe("");
      expect(listed.stderr).toContain("no sessions in this workspace");
    });
  }

  test("a subagent interrupted in its beforeRun hooks leaves no session of its own; the parent's stays", async () => {
    s = await scenario({ agentFrontmatter: "agents: [helper]" });
    const marker = join(s.inst.root, "before-run-started");
    s.inst.agent("helper", "---\ndescription: Helps.\nmodel: p/m\nhooks: [slow-start]\n---\nYou help.\n");
    s.inst.hook(
      "slow-start",
      `module.exports = { beforeRun(ctx) { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "1"); ctx.sleep(60000); } };`,
    );
    s.server.script({ toolCalls: [{ id: "h1", name: "agent__helper", arguments: { prompt: "help" } }] });
    const run = s.inst.start(["run", "-a", "coder", "-p", "hello"], { killAfterMs: 20_000 });
    await waitFor(() => existsSync(marker), 15_000, "the child's beforeRun hook to start");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const id = sessionIdFrom(r.stderr);
    expect(sessionFiles(s.inst.home)).toEqual([sessionFile(s.inst.home, id)]);
    const kinds = readEntries(sessionFile(s.inst.home, id)).map((e) => e.kind);
    expect(kinds).toEqual(["header", "message", "message", "message", "interruption"]);
  });

  test("the chat: a first turn interrupted in its beforeRun hooks, then quitting, leaves no session", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario({ agentFrontmatter: "hooks: [slow-start]" });
    const marker = join(s.inst.root, "before-run-started");
    s.inst.hook(
      "slow-start",
      `module.exports = { beforeRun(ctx) { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "1"); ctx.sleep(60000); } };`,
    );
    const term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    try {
      await term.waitForPrompt();
      term.line("hello");
      await waitFor(() => existsSync(marker), 15_000, "the beforeRun hook to start");
      term.keys("C-c");
      await term.waitForPrompt(1);
      term.keys("C-d");
      expect(await term.exitCode()).toBe(0);
    } finally {
      term.dispose();
    }
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toEqual([]);
  });
});

/** The essay the scripted model streams before it stalls: its pieces, as they reach the screen. */
const ESSAY = "Rivers shape the land.\n\nFirst, they carve valleys  ";

describe("an answer interrupted while it streams", () => {
  for (const protocol of PROTOCOLS) {
    test(`is kept and sent back byte for byte, marked as cut short, when the conversation goes on (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: ESSAY, hang: true, hangAfter: 1_000 });
      const run = s.inst.start(["run", "-a", "coder", "-p", "write an essay", "--json"]);
      await waitFor(() => deltasOf(run.stdout()).endsWith("valleys  "), 10_000, "the essay to stream");
      run.kill("SIGINT");
      const r = await run.done;
      expect(r.code).toBe(130);
      const id = String(JSON.parse(r.stdout.split("\n")[0]!).sessionId);
      const entries = readEntries(sessionFile(s.inst.home, id));
      const answer = entries.find((e) => e.kind === "message" && e.role === "assistant")!;
      expect(answer).toMatchObject({ interrupted: "user", blocks: [{ type: "text", text: ESSAY }] });
      expect(entries.find((e) => e.kind === "interruption")).toMatchObject({ parentId: answer.id });

      s.server.script({ text: "and then they reach the sea." });
      const next = await s.inst.run(["run", "-s", id, "-p", "go on"]);
      expect(next.code).toBe(0);
      const turns = turnsOf(s.server.requests[1]!.body);
      expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
      expect(turns[1]!.text).toBe(ESSAY);
      expect(turns[2]!.text).toStartWith("[The user interrupted your previous answer");
      expect(turns[2]!.text).toEndWith("go on");

      const shown = await s.inst.run(["sessions", "show", id]);
      expect(shown.stdout).toContain("interrupted");
      expect(shown.stdout).toContain("First, they carve valleys");
    });
  }

  test("a run whose stream is cut before any text keeps nothing of the answer", async () => {
    s = await scenario();
    s.server.script({ text: "never shown", hang: true, hangAfter: 1 });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await s.server.waitForRequests(1);
    run.kill("SIGINT");
    const r = await run.done;
    const entries = readEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr)));
    expect(entries.filter((e) => e.kind === "message").map((e) => e.role)).toEqual(["user"]);
  });
});

/** The text of every text_delta event printed so far by `--json`. */
function deltasOf(stdout: string): string {
  return stdout
    .split("\n")
    .filter((line) => line.includes('"text_delta"'))
    .map((line) => (JSON.parse(line) as { text: string }).text)
    .join("");
}
