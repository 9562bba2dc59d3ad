/** branchPoint, forkSession, readSession, memory sessions, importSession, removeSession and pruneSessions of src/sessions. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  branchPoint,
  forkSession,
  importSession,
  pruneSessions,
  readSession,
  removeSession,
  type SessionFile,
} from "../../src/sessions/index.ts";
import { createSession, openSession, steppingClock, steppingIds, tempHome } from "./helpers.ts";

const text = (t: string) => [{ type: "text" as const, text: t }];
let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.dispose());

/** q1 a1 q2 a2, with a model switch (sw) on the chain after a1 and a tool-calling answer. */
function conversation(): { session: SessionFile; ids: Record<"q1" | "a1" | "sw" | "q2" | "a2" | "r2", string> } {
  const session = createSession({
    home: t.home,
    workdir: t.workdir,
    agent: "coder",
    model: "p/m",
    ids: steppingIds(),
    now: steppingClock(),
  });
  const q1 = session.appendMessage({ role: "user", blocks: text("q1") });
  const a1 = session.appendMessage({ role: "assistant", blocks: text("a1") });
  session.appendModel("p/other");
  const sw = session.leafId!;
  const q2 = session.appendMessage({ role: "user", blocks: text("q2") });
  const a2 = session.appendMessage({
    role: "assistant",
    blocks: [{ type: "tool_call", toolCallId: "c", toolCallName: "shell", toolCallArguments: {} }],
  });
  const r2 = session.appendMessage({
    role: "user",
    blocks: [{ type: "tool_result", toolResultCallId: "c", toolResult: text("ok") }],
  });
  return { session, ids: { q1, a1, sw, q2, a2, r2 } };
}

describe("branchPoint", () => {
  test("an answer is followed, a prompt replaced, tool calls and results refused, unknown ids named", () => {
    const { session, ids } = conversation();
    const at = (id: string) => branchPoint((e) => session.entry(e), session.id, id);
    expect(at(ids.a1!)).toBe(ids.a1!);
    // In q2's place: after the switch it hangs from, so the new prompt keeps the model.
    expect(at(ids.q2!)).toBe(ids.sw!);
    expect(at(ids.q1!)).toBeNull();
    expect(() => at(ids.a2!)).toThrow("calls tools");
    expect(() => at(ids.r2!)).toThrow("carries tool results");
    expect(() => at("nope")).toThrow('has no message "nope"');
  });
});

describe("forkSession", () => {
  test("copies the branch up to the point with ids kept, names its origin, and leaves the original unwritten", () => {
    const { session, ids } = conversation();
    session.close();
    const before = readFileSync(session.path);
    const stored = readSession({ home: t.home, id: session.id });
    const fork = forkSession({ home: t.home, workdir: t.workdir, from: stored, at: ids.q2! });
    expect(fork.header).toMatchObject({ forkedFrom: session.id, forkedAt: ids.q2 });
    expect(fork.branch().map((e) => e.id)).toEqual([ids.q1, ids.a1, ids.q2]);
    expect(fork.model).toBe("p/other");
    expect(readFileSync(fork.path, "utf8")).toContain(`{"kind":"model","id":"${ids.sw}","parentId":"${ids.a1}",`);
    // The switch follows a1: a fork from before it has the first model.
    expect(forkSession({ home: t.home, workdir: t.workdir, from: stored, at: ids.q1! }).model).toBe("p/m");
    expect(readFileSync(session.path)).toEqual(before);
    fork.close();
    expect(
      openSession({ home: t.home, id: fork.id })
        .branch()
        .map((e) => e.id),
    ).toEqual([ids.q1, ids.a1, ids.q2]);
  });

  test("a memory fork (--no-session) writes no file", () => {
    const { session, ids } = conversation();
    const stored = readSession({ home: t.home, id: session.id });
    const fork = forkSession({ home: t.home, workdir: t.workdir, from: stored, at: ids.a1!, memory: true });
    fork.appendMessage({ role: "user", blocks: text("what if") });
    expect(fork.ephemeral).toBe(true);
    expect(fork.messages()).toHaveLength(3);
    expect(existsSync(fork.path)).toBe(false);
  });
});

describe("readSession", () => {
  test("reads a session held open without taking its lock, leaving a torn tail alone", () => {
    const { session } = conversation();
    writeFileSync(session.path, readFileSync(session.path, "utf8") + '{"kind":"mess');
    const stored = readSession({ home: t.home, id: session.id });
    expect(stored.tree.messageCount).toBe(5);
    expect(stored.bytes.length).toBeLessThan(readFileSync(session.path).length);
    expect(readFileSync(session.path, "utf8").endsWith('{"kind":"mess')).toBe(true);
  });
});

describe("importSession", () => {
  test("files a checked copy with the importing workspace, never over an existing id", () => {
    const { session } = conversation();
    session.close();
    const bytes = readFileSync(session.path);
    expect(() => importSession({ home: t.home, workdir: t.workdir, bytes, source: "x" })).toThrow("already exists");
    const other = tempHome();
    try {
      const imported = importSession({ home: other.home, workdir: "/elsewhere", bytes, source: "x" });
      expect(JSON.parse(readFileSync(imported.path, "utf8").split("\n")[0]!)).toMatchObject({
        id: session.id,
        workdir: "/elsewhere",
      });
      expect(readFileSync(imported.path, "utf8").split("\n").slice(1)).toEqual(bytes.toString().split("\n").slice(1));
      expect(() => importSession({ home: other.home, workdir: "/x", bytes: Buffer.from("{}\n"), source: "y" })).toThrow(
        "not a session header",
      );
    } finally {
      other.dispose();
    }
  });

  test("the Go fixture imports", () => {
    const bytes = readFileSync(resolve(import.meta.dir, "../fixtures/sessions/go-branched.jsonl"));
    expect(importSession({ home: t.home, workdir: t.workdir, bytes, source: "go" }).messageCount).toBe(8);
  });
});

describe("removeSession and pruneSessions", () => {
  test("a session open here (its lock held) is refused; closed, it goes", () => {
    const { session } = conversation();
    expect(() => removeSession({ home: t.home, id: session.id })).toThrow();
    session.close();
    removeSession({ home: t.home, id: session.id });
    expect(existsSync(session.path)).toBe(false);
  });

  test("prune removes what is older than the age, dry runs remove nothing", () => {
    const { session } = conversation();
    session.close();
    const now = Date.UTC(2025, 1, 1);
    expect(pruneSessions({ home: t.home, workdir: t.workdir, olderThanMs: 40 * 86_400_000, now }).removed).toHaveLength(
      0,
    );
    expect(
      pruneSessions({ home: t.home, workdir: t.workdir, olderThanMs: 86_400_000, now, dryRun: true }).removed,
    ).toHaveLength(1);
    expect(existsSync(session.path)).toBe(true);
    expect(
      pruneSessions({ home: t.home, workdir: t.workdir, olderThanMs: 86_400_000, now }).removed.map((r) => r.id),
    ).toEqual([session.id]);
    expect(existsSync(session.path)).toBe(false);
  });
});
