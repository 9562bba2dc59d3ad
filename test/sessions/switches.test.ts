/**
 * Agent, model and thinking switches (go-current.md §5): read in the Go
 * Rienda's shape (on the chain) and in the one earlier versions of ours wrote
 * (beside it), written in Go's, and what a branch runs with is the newest
 * switch on it, never one of another branch.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/providers/types.ts";
import {
  branchPoint,
  forkSession,
  listSessions,
  readSession,
  type SessionFile,
  workspaceDir,
} from "../../src/sessions/index.ts";
import { createSession, openSession, steppingClock, steppingIds, tempHome } from "./helpers.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });
const state = (s: SessionFile) => [s.agent, s.model, s.thinking];

let t: ReturnType<typeof tempHome>;
beforeEach(() => {
  t = tempHome();
  mkdirSync(t.workdir, { recursive: true });
});
afterEach(() => t.dispose());

/** Writes a session file by hand into the workspace's directory. */
function handWritten(id: string, lines: readonly unknown[]): string {
  const dir = workspaceDir(t.home, t.workdir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

const GO_ID = "01jr0go0000000000000000000";
/**
 * A session as the current Go Rienda writes it: its first message without
 * `parentId`, nanosecond times, every switch a link of the chain; a model
 * and a thinking switch after a1, an agent switch after a2, then the leaf
 * moved back to a1 and a branch with no switch at all.
 */
const goSession = (workdir: string) => [
  {
    kind: "header",
    version: 1,
    id: GO_ID,
    createdAt: "2026-02-01T10:00:00.123456789Z",
    agent: "coder",
    model: "p/m",
    workdir,
  },
  {
    kind: "message",
    id: "u1",
    createdAt: "2026-02-01T10:00:01.5Z",
    role: "user",
    blocks: [{ type: "text", text: "Fix the parser" }],
  },
  {
    kind: "message",
    id: "a1",
    parentId: "u1",
    createdAt: "2026-02-01T10:00:02Z",
    role: "assistant",
    responseStopReason: "end_turn",
    blocks: [{ type: "text", text: "Looking." }],
  },
  {
    kind: "model",
    id: "mdl1",
    parentId: "a1",
    createdAt: "2026-02-01T10:00:03Z",
    modelRef: "p/big",
    previousModelRef: "p/m",
  },
  { kind: "thinking", id: "thk1", parentId: "mdl1", createdAt: "2026-02-01T10:00:04Z", thinkingLevel: "high" },
  {
    kind: "message",
    id: "u2",
    parentId: "thk1",
    createdAt: "2026-02-01T10:00:05Z",
    role: "user",
    blocks: [{ type: "text", text: "Now with care" }],
  },
  {
    kind: "message",
    id: "a2",
    parentId: "u2",
    createdAt: "2026-02-01T10:00:06Z",
    role: "assistant",
    blocks: [{ type: "text", text: "Done carefully." }],
  },
  {
    kind: "agent",
    id: "agt1",
    parentId: "a2",
    createdAt: "2026-02-01T10:00:07Z",
    agentId: "reviewer",
    previousAgentId: "coder",
  },
  {
    kind: "message",
    id: "u3",
    parentId: "agt1",
    createdAt: "2026-02-01T10:00:08Z",
    role: "user",
    blocks: [{ type: "text", text: "Review it" }],
  },
  {
    kind: "message",
    id: "a3",
    parentId: "u3",
    createdAt: "2026-02-01T10:00:09Z",
    role: "assistant",
    blocks: [{ type: "text", text: "Looks fine." }],
  },
  { kind: "tag", targetId: "a3", createdAt: "2026-02-01T10:00:10Z", tag: "good" },
  { kind: "leaf", targetId: "a1", createdAt: "2026-02-01T10:00:11Z" },
  {
    kind: "message",
    id: "u4",
    parentId: "a1",
    createdAt: "2026-02-01T10:00:12Z",
    role: "user",
    blocks: [{ type: "text", text: "Explain instead" }],
  },
  {
    kind: "message",
    id: "a4",
    parentId: "u4",
    createdAt: "2026-02-01T10:00:13Z",
    role: "assistant",
    blocks: [{ type: "text", text: "Here is why." }],
  },
];

describe("a session of the current Go Rienda, switches on the chain", () => {
  test("loads with the active branch's history and what that branch runs with", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const s = openSession({ home: t.home, id: GO_ID, workdir: t.workdir });
    expect(s.leafId).toBe("a4");
    expect(s.messages()).toEqual([
      user("Fix the parser"),
      assistant("Looking."),
      user("Explain instead"),
      assistant("Here is why."),
    ]);
    // The switches are on the other branch: none applies here.
    expect(state(s)).toEqual(["coder", "p/m", undefined]);
    expect([s.agentAt("a3"), s.modelAt("a3"), s.thinkingAt("a3")]).toEqual(["reviewer", "p/big", "high"]);
    expect([s.agentAt("a2"), s.modelAt("a2"), s.thinkingAt("a2")]).toEqual(["coder", "p/big", "high"]);
    expect([s.agentAt("mdl1"), s.modelAt("mdl1"), s.thinkingAt("mdl1")]).toEqual(["coder", "p/big", undefined]);
    expect([s.modelAt("a1"), s.thinkingAt("a1")]).toEqual(["p/m", undefined]);
  });

  test("moving to the other branch brings its switches and its history; continuing there writes after its leaf", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const s = openSession({ home: t.home, id: GO_ID, workdir: t.workdir });
    s.moveLeaf("a3");
    expect(state(s)).toEqual(["reviewer", "p/big", "high"]);
    expect(s.branch().map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
    expect(s.messages().map((m) => (m.blocks[0] as { text: string }).text)).toEqual([
      "Fix the parser",
      "Looking.",
      "Now with care",
      "Done carefully.",
      "Review it",
      "Looks fine.",
    ]);
    const next = s.appendMessage(user("And the tests?"));
    expect(openSession({ home: t.home, id: GO_ID }).branch().at(-1)!.id).toBe(next);
    expect(state(openSession({ home: t.home, id: GO_ID }))).toEqual(["reviewer", "p/big", "high"]);
  });

  test("a prompt after a switch is continued in its place after the switch (--at, /tree)", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const stored = readSession({ home: t.home, id: GO_ID });
    expect(branchPoint((id) => stored.tree.entry(id), GO_ID, "u2")).toBe("thk1");
    expect(branchPoint((id) => stored.tree.entry(id), GO_ID, "u3")).toBe("agt1");
  });

  test("a fork copies the switches on its branch and no other", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const stored = readSession({ home: t.home, id: GO_ID });
    const fork = forkSession({ home: t.home, workdir: t.workdir, from: stored, at: "a3" });
    expect(state(fork)).toEqual(["reviewer", "p/big", "high"]);
    expect(fork.branch().map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
    const ids = readFileSync(fork.path, "utf8")
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual(["u1", "a1", "mdl1", "thk1", "u2", "a2", "agt1", "u3", "a3"]);
    const atA4 = forkSession({ home: t.home, workdir: t.workdir, from: stored, at: "a4" });
    expect(state(atA4)).toEqual(["coder", "p/m", undefined]);
    expect(readFileSync(atA4.path, "utf8")).not.toContain('"kind":"model"');
  });

  test("listing shows the active branch's agent and model, also after the leaf moves between branches", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const list = () => listSessions({ home: t.home, workdir: t.workdir })[0]!;
    expect(list()).toMatchObject({ agent: "coder", model: "p/m", messageCount: 8 });
    expect(list().thinking).toBeUndefined();
    const s = openSession({ home: t.home, id: GO_ID, workdir: t.workdir });
    s.moveLeaf("a3");
    expect(list()).toMatchObject({ agent: "reviewer", model: "p/big", thinking: "high" });
    // Grown from the index's offset, on the branch it followed: no reload needed, and still right.
    s.appendThinking("low");
    s.appendMessage(user("quick look"));
    expect(list()).toMatchObject({ agent: "reviewer", model: "p/big", thinking: "low", messageCount: 9 });
    s.moveLeaf("a4");
    expect(list()).toMatchObject({ agent: "coder", model: "p/m" });
    expect(list().thinking).toBeUndefined();
  });

  test("an interruption and a compaction on a branch through switches", () => {
    handWritten(GO_ID, goSession(t.workdir));
    const s = openSession({ home: t.home, id: GO_ID, workdir: t.workdir });
    s.moveLeaf("a2");
    s.appendAgent("planner");
    const prompt = s.appendMessage(user("Plan the rest"));
    s.appendInterruption();
    expect(s.messages().slice(-2)).toEqual([
      user("Plan the rest"),
      { role: "assistant", blocks: [expect.objectContaining({ type: "text" })] },
    ]);
    s.appendCompaction({ summary: "Fixed the parser carefully.", keptId: prompt });
    s.appendModel("p/other");
    s.appendMessage(user("Go on"));
    const reopened = openSession({ home: t.home, id: GO_ID });
    expect(reopened.messages().map((m) => m.role)).toEqual(["user", "user", "assistant", "user"]);
    expect(reopened.messages().at(-1)).toEqual(user("Go on"));
    expect(state(reopened)).toEqual(["planner", "p/other", "high"]);
  });
});

describe("switches written by ours", () => {
  test("are the Go shape, byte for byte, each hanging from the one before", () => {
    const s = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "coder",
      model: "p/a",
      ids: steppingIds(),
      now: steppingClock(),
    });
    const q = s.appendMessage(user("hi"));
    s.appendModel("p/b");
    const model = s.leafId!;
    s.appendThinking("high");
    const thinking = s.leafId!;
    s.appendAgent("planner");
    const agent = s.leafId!;
    s.appendThinking(undefined);
    const off = s.leafId!;
    const lines = readFileSync(s.path, "utf8").trimEnd().split("\n");
    expect(lines.slice(2)).toEqual([
      `{"kind":"model","id":"${model}","parentId":"${q}","createdAt":"2025-01-02T03:04:07.000Z","modelRef":"p/b","previousModelRef":"p/a"}`,
      `{"kind":"thinking","id":"${thinking}","parentId":"${model}","createdAt":"2025-01-02T03:04:08.000Z","thinkingLevel":"high"}`,
      `{"kind":"agent","id":"${agent}","parentId":"${thinking}","createdAt":"2025-01-02T03:04:09.000Z","agentId":"planner","previousAgentId":"coder"}`,
      `{"kind":"thinking","id":"${off}","parentId":"${agent}","createdAt":"2025-01-02T03:04:10.000Z","thinkingLevel":"off"}`,
    ]);
    expect(state(s)).toEqual(["planner", "p/b", "off"]);
  });

  test("a switch before the first message is the root the first message follows", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendThinking("medium");
    const root = s.leafId;
    const q = s.appendMessage(user("hi"));
    const lines = readFileSync(s.path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[1]).toMatchObject({ kind: "thinking", parentId: null, thinkingLevel: "medium" });
    expect(lines[2]).toMatchObject({ id: q, parentId: root });
    expect(s.messages()).toEqual([user("hi")]);
    expect(openSession({ home: t.home, id: s.id }).thinking).toBe("medium");
  });

  test("what is already in effect writes nothing; an explicit off is recorded (no entry means the model's own level)", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("one"));
    const before = readFileSync(s.path, "utf8");
    expect([s.appendAgent("coder"), s.appendModel("p/a")]).toEqual([false, false]);
    expect(readFileSync(s.path, "utf8")).toBe(before);
    expect(s.thinking).toBeUndefined();
    expect([s.appendThinking("off"), s.appendThinking(undefined), s.appendThinking("none")]).toEqual([
      true,
      false,
      false,
    ]);
    expect(s.thinking).toBe("off");
    expect(s.appendThinking("high")).toBe(true);
    expect(s.appendThinking("high")).toBe(false);
    expect(s.appendThinking("none")).toBe(true);
    expect(s.thinking).toBe("off");
  });

  test("a switch made on one branch does not follow the conversation to another (a branch keeps its model)", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/m1" });
    s.appendMessage(user("q1"));
    const earlier = s.appendMessage(assistant("a1"));
    s.appendMessage(user("q2"));
    const a2 = s.appendMessage(assistant("a2"));
    s.appendModel("p/m2");
    s.appendThinking("high");
    expect([s.model, s.thinking]).toEqual(["p/m2", "high"]);
    // Back to an earlier answer (/tree), and a message there.
    s.moveLeaf(earlier);
    s.appendMessage(user("another way"));
    expect([s.model, s.thinking]).toEqual(["p/m1", undefined]);
    const reopened = openSession({ home: t.home, id: s.id });
    expect([reopened.model, reopened.thinking]).toEqual(["p/m1", undefined]);
    expect(listSessions({ home: t.home, workdir: t.workdir })[0]!.model).toBe("p/m1");
    // The abandoned branch keeps its own.
    expect([reopened.modelAt(a2), reopened.thinkingAt(a2)]).toEqual(["p/m1", undefined]);
    const switchLeaf = JSON.parse(readFileSync(s.path, "utf8").trimEnd().split("\n")[6]!).id as string;
    expect([reopened.modelAt(switchLeaf), reopened.thinkingAt(switchLeaf)]).toEqual(["p/m2", "high"]);
  });
});

describe("sessions written by earlier versions of ours, switches beside the chain", () => {
  const OLD_ID = "01jr0old000000000000000000";
  const oldSession = (workdir: string) => [
    {
      kind: "header",
      version: 1,
      id: OLD_ID,
      createdAt: "2025-06-01T00:00:00.000Z",
      agent: "coder",
      model: "p/m",
      workdir,
    },
    {
      kind: "message",
      id: "m1",
      parentId: null,
      createdAt: "2025-06-01T00:00:01.000Z",
      role: "user",
      blocks: [{ type: "text", text: "q1" }],
    },
    {
      kind: "message",
      id: "m2",
      parentId: "m1",
      createdAt: "2025-06-01T00:00:02.000Z",
      role: "assistant",
      blocks: [{ type: "text", text: "a1" }],
    },
    {
      kind: "agent",
      id: "s1",
      parentId: "m2",
      createdAt: "2025-06-01T00:00:03.000Z",
      agent: "planner",
      previousAgent: "coder",
    },
    {
      kind: "model",
      id: "s2",
      parentId: "m2",
      createdAt: "2025-06-01T00:00:03.000Z",
      model: "p/big",
      previousModel: "p/m",
    },
    {
      kind: "message",
      id: "m3",
      parentId: "m2",
      createdAt: "2025-06-01T00:00:04.000Z",
      role: "user",
      blocks: [{ type: "text", text: "q2" }],
    },
    {
      kind: "message",
      id: "m4",
      parentId: "m3",
      createdAt: "2025-06-01T00:00:05.000Z",
      role: "assistant",
      blocks: [{ type: "text", text: "a2" }],
    },
  ];

  test("apply to every branch through the entry they hang from, and not before it", () => {
    handWritten(OLD_ID, oldSession(t.workdir));
    const s = openSession({ home: t.home, id: OLD_ID, workdir: t.workdir });
    expect(s.leafId).toBe("m4");
    expect(s.branch().map((e) => e.id)).toEqual(["m1", "m2", "m3", "m4"]);
    expect(state(s)).toEqual(["planner", "p/big", undefined]);
    expect([s.agentAt("m2"), s.modelAt("m2")]).toEqual(["planner", "p/big"]);
    expect([s.agentAt("m1"), s.modelAt("m1")]).toEqual(["coder", "p/m"]);
    expect(listSessions({ home: t.home, workdir: t.workdir })[0]).toMatchObject({ agent: "planner", model: "p/big" });
    const stored = readSession({ home: t.home, id: OLD_ID });
    expect(stored.entries.find((e) => e.kind === "model")).toEqual({
      kind: "model",
      id: "s2",
      parentId: "m2",
      createdAt: "2025-06-01T00:00:03.000Z",
      modelRef: "p/big",
      previousModelRef: "p/m",
      beside: true,
    });
  });

  test("continue with switches in the Go shape on the chain, both read together", () => {
    handWritten(OLD_ID, oldSession(t.workdir));
    const s = openSession({ home: t.home, id: OLD_ID, workdir: t.workdir });
    s.appendModel("p/other");
    s.appendMessage(user("q3"));
    const lines = readFileSync(s.path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[7]).toMatchObject({ kind: "model", parentId: "m4", modelRef: "p/other", previousModelRef: "p/big" });
    expect(lines[8]).toMatchObject({ kind: "message", parentId: lines[7].id });
    const reopened = openSession({ home: t.home, id: OLD_ID });
    expect(state(reopened)).toEqual(["planner", "p/other", undefined]);
    expect(reopened.messages().map((m) => (m.blocks[0] as { text: string }).text)).toEqual([
      "q1",
      "a1",
      "q2",
      "a2",
      "q3",
    ]);
    expect(listSessions({ home: t.home, workdir: t.workdir })[0]).toMatchObject({ agent: "planner", model: "p/other" });
  });

  test("a fork keeps them beside the chain, in their own shape", () => {
    handWritten(OLD_ID, oldSession(t.workdir));
    const fork = forkSession({
      home: t.home,
      workdir: t.workdir,
      from: readSession({ home: t.home, id: OLD_ID }),
      at: "m4",
    });
    expect(state(fork)).toEqual(["planner", "p/big", undefined]);
    expect(readFileSync(fork.path, "utf8")).toContain(
      '{"kind":"model","id":"s2","parentId":"m2","createdAt":"2025-06-01T00:00:03.000Z","model":"p/big","previousModel":"p/m"}',
    );
  });
});

describe("reading switch entries", () => {
  test("unknown kinds, switches without a value and a torn last line are harmless; entries hanging from them still link", () => {
    const id = "01jr0odd000000000000000000";
    const path = handWritten(id, [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2026-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: t.workdir,
      },
      {
        kind: "message",
        id: "u1",
        createdAt: "2026-01-01T00:00:01Z",
        role: "user",
        blocks: [{ type: "text", text: "q" }],
      },
      { kind: "model", id: "x1", parentId: "u1", createdAt: "2026-01-01T00:00:02Z" },
      { kind: "thinking", id: "x2", parentId: "x1", createdAt: "2026-01-01T00:00:03Z", thinkingLevel: 7 },
      { kind: "verbosity", id: "x3", parentId: "x2", createdAt: "2026-01-01T00:00:04Z", verbosity: "low" },
      { kind: "thinking", id: "x4", parentId: "x3", createdAt: "2026-01-01T00:00:05Z", thinkingLevel: "max" },
      {
        kind: "message",
        id: "a1",
        parentId: "x4",
        createdAt: "2026-01-01T00:00:06Z",
        role: "assistant",
        blocks: [{ type: "text", text: "a" }],
      },
      '{"kind":"model","id":"x5","parentId":"a1","createdAt":"2026-01-01T00:00:07Z","modelRef":"p/b',
    ]);
    // Torn: a crash cut the last line before its newline (a whole line that is not JSON is an error, issue 39).
    truncateSync(path, statSync(path).size - 1);
    const s = openSession({ home: t.home, id, workdir: t.workdir });
    expect(s.messages()).toEqual([user("q"), assistant("a")]);
    expect(state(s)).toEqual(["coder", "p/m", "max"]);
    expect(listSessions({ home: t.home, workdir: t.workdir })[0]).toMatchObject({
      model: "p/m",
      thinking: "max",
      problem: null,
    });
  });

  test("an entry opening a branch without a leaf entry takes the listing to that branch", () => {
    const id = "01jr0jump00000000000000000";
    handWritten(id, [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2026-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: t.workdir,
      },
      {
        kind: "message",
        id: "u1",
        createdAt: "2026-01-01T00:00:01Z",
        role: "user",
        blocks: [{ type: "text", text: "q" }],
      },
      {
        kind: "message",
        id: "a1",
        parentId: "u1",
        createdAt: "2026-01-01T00:00:02Z",
        role: "assistant",
        blocks: [{ type: "text", text: "a" }],
      },
      {
        kind: "model",
        id: "x1",
        parentId: "a1",
        createdAt: "2026-01-01T00:00:03Z",
        modelRef: "p/b",
        previousModelRef: "p/m",
      },
      {
        kind: "message",
        id: "u2",
        parentId: "x1",
        createdAt: "2026-01-01T00:00:04Z",
        role: "user",
        blocks: [{ type: "text", text: "q2" }],
      },
      {
        kind: "message",
        id: "u3",
        parentId: "a1",
        createdAt: "2026-01-01T00:00:05Z",
        role: "user",
        blocks: [{ type: "text", text: "q3" }],
      },
    ]);
    expect(listSessions({ home: t.home, workdir: t.workdir })[0]).toMatchObject({ model: "p/m", messageCount: 4 });
    expect(openSession({ home: t.home, id, workdir: t.workdir }).model).toBe("p/m");
  });

  test("a switch on the chain naming an unknown parent is refused with the line, as a message would be", () => {
    const id = "01jr0bad000000000000000000";
    handWritten(id, [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2026-01-01T00:00:00Z",
        agent: "coder",
        model: "p/m",
        workdir: t.workdir,
      },
      {
        kind: "model",
        id: "x1",
        parentId: "nowhere",
        createdAt: "2026-01-01T00:00:02Z",
        modelRef: "p/b",
        previousModelRef: "p/m",
      },
    ]);
    expect(() => readSession({ home: t.home, id })).toThrow(`line 2: parent "nowhere" is not an earlier entry`);
  });
});
