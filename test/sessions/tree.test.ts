import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import type { Message } from "../../src/providers/types.ts";
import type { SessionFile } from "../../src/sessions/index.ts";
import { steppingClock, tempHome, createSession, openSession } from "./helpers.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });
const texts = (s: SessionFile) => s.messages().map((m) => (m.blocks[0] as { text: string }).text);

describe("the conversation tree", () => {
  let t: ReturnType<typeof tempHome>;
  let s: SessionFile;
  // A reopen stands for the next process: later writes go through it, as they would there.
  const reopen = () => (s = openSession({ home: t.home, id: s.id, workdir: t.workdir }));
  beforeEach(() => {
    t = tempHome();
    s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a", now: steppingClock() });
  });
  afterEach(() => t.dispose());

  test("chains each message to the one before and makes it the leaf", () => {
    const a = s.appendMessage(user("one"));
    const b = s.appendMessage(assistant("two"));
    expect(s.leafId).toBe(b);
    expect(s.branch().map((e) => [e.id, e.parentId])).toEqual([
      [a, null],
      [b, a],
    ]);
    expect(texts(reopen())).toEqual(["one", "two"]);
    expect(reopen().leafId).toBe(b);
  });

  test("a leaf entry moves the active branch; appending there opens a branch beside the old one", () => {
    const a = s.appendMessage(user("one"));
    s.appendMessage(assistant("two"));
    s.appendMessage(user("three"));
    s.moveLeaf(a);
    expect(texts(s)).toEqual(["one"]);
    const b = s.appendMessage(assistant("two, again"));
    expect(texts(s)).toEqual(["one", "two, again"]);
    const again = reopen();
    expect(texts(again)).toEqual(["one", "two, again"]);
    expect(again.leafId).toBe(b);
    expect(again.messageCount).toBe(4);
  });

  test("the last message is the leaf unless a later leaf entry says otherwise", () => {
    const a = s.appendMessage(user("one"));
    const b = s.appendMessage(assistant("two"));
    s.moveLeaf(a);
    expect(reopen().leafId).toBe(a);
    s.moveLeaf(b);
    expect(reopen().leafId).toBe(b);
    expect(texts(reopen())).toEqual(["one", "two"]);
  });

  test("a leaf entry without a target moves before the first message; the next message is a new root", () => {
    s.appendMessage(user("one"));
    s.moveLeaf(null);
    expect(s.messages()).toEqual([]);
    expect(reopen().messages()).toEqual([]);
    const root = s.appendMessage(user("fresh start"));
    expect(s.branch().map((e) => e.parentId)).toEqual([null]);
    expect(texts(reopen())).toEqual(["fresh start"]);
    expect(reopen().leafId).toBe(root);
  });

  test("refuses to move the leaf to an entry that does not exist", () => {
    s.appendMessage(user("one"));
    expect(() => s.moveLeaf("nope")).toThrow('has no entry "nope"');
  });

  test("a leaf entry naming an unknown entry is an error naming the file and line", () => {
    s.appendMessage(user("one"));
    appendFileSync(s.path, `{"kind":"leaf","targetId":"ghost","createdAt":"2025-01-01T00:00:00Z"}\n`);
    expect(() => reopen()).toThrow(`session file ${s.path}, line 3: the leaf points at unknown entry "ghost"`);
  });

  test("a message whose parent is not an earlier entry is an error naming the line", () => {
    s.appendMessage(user("one"));
    appendFileSync(
      s.path,
      `{"kind":"message","id":"m9","parentId":"missing","createdAt":"","role":"user","blocks":[]}\n`,
    );
    expect(() => reopen()).toThrow(`line 3: parent "missing" is not an earlier entry`);
  });

  test("agent and model switches apply from where they were made, on that branch only", () => {
    const a = s.appendMessage(user("one"));
    s.appendMessage(assistant("two"));
    expect(s.appendAgent("planner")).toBe(true);
    expect(s.appendModel("p/b")).toBe(true);
    s.appendMessage(user("three"));
    expect([s.agent, s.model]).toEqual(["planner", "p/b"]);
    expect([reopen().agent, reopen().model]).toEqual(["planner", "p/b"]);
    s.moveLeaf(a);
    expect([s.agent, s.model]).toEqual(["coder", "p/a"]);
    expect([reopen().agent, reopen().model]).toEqual(["coder", "p/a"]);
    expect(s.header.agent).toBe("coder");
  });

  test("switches go on the chain, recording what they replaced: the leaf moves to them and the next message follows them", () => {
    const a = s.appendMessage(user("one"));
    s.appendAgent("planner");
    const agentSwitch = s.leafId!;
    s.appendModel("p/b");
    const modelSwitch = s.leafId!;
    expect([agentSwitch, modelSwitch]).not.toContain(a);
    const b = s.appendMessage(assistant("two"));
    expect(s.branch().map((e) => e.id)).toEqual([a, b]);
    const lines = readFileSync(s.path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[2]).toMatchObject({
      kind: "agent",
      id: agentSwitch,
      parentId: a,
      agentId: "planner",
      previousAgentId: "coder",
    });
    expect(lines[3]).toMatchObject({
      kind: "model",
      id: modelSwitch,
      parentId: agentSwitch,
      modelRef: "p/b",
      previousModelRef: "p/a",
    });
    expect(lines[4]).toMatchObject({ kind: "message", parentId: modelSwitch });
  });

  test("a switch made before any message applies to every branch", () => {
    s.appendAgent("planner");
    const a = s.appendMessage(user("one"));
    s.appendMessage(assistant("two"));
    s.moveLeaf(a);
    expect(s.agent).toBe("planner");
    expect(reopen().agent).toBe("planner");
  });

  test("switching to what is already in effect writes nothing", () => {
    s.appendMessage(user("one"));
    const before = readFileSync(s.path, "utf8");
    expect(s.appendAgent("coder")).toBe(false);
    expect(s.appendModel("p/a")).toBe(false);
    expect(readFileSync(s.path, "utf8")).toBe(before);
  });

  test("the title is the first line of the first prompt, at most 80 characters", () => {
    expect(s.title).toBe("");
    s.appendMessage({ role: "user", blocks: [{ type: "text", text: `\n  ${"é".repeat(90)}  \nsecond line` }] });
    expect(s.title).toBe("é".repeat(80));
    expect(reopen().title).toBe("é".repeat(80));
  });

  test("a title entry replaces the default title; an empty one restores it", () => {
    s.appendMessage(user("fix the parser"));
    s.appendTitle("Parser work\nignored");
    expect(s.title).toBe("Parser work");
    expect(reopen().title).toBe("Parser work");
    s.appendTitle("");
    expect(s.title).toBe("fix the parser");
    expect(reopen().title).toBe("fix the parser");
  });

  test("a user message carrying only tool results does not give the title", () => {
    s.appendMessage({
      role: "user",
      blocks: [{ type: "tool_result", toolResultCallId: "c", toolResult: [{ type: "text", text: "out" }] }],
    });
    s.appendMessage(user("the real question"));
    expect(reopen().title).toBe("the real question");
  });

  test("a compaction replaces the entries before the kept one with the summary", () => {
    s.appendMessage(user("one"));
    s.appendMessage(assistant("two"));
    const kept = s.appendMessage(user("three"));
    s.appendMessage(assistant("four"));
    s.appendCompaction({ summary: "we counted to two", keptId: kept, tokensBefore: 1234 });
    s.appendMessage(user("five"));
    for (const view of [s, reopen()]) {
      const messages = view.messages();
      expect(messages).toHaveLength(4);
      expect(messages[0]!.role).toBe("user");
      expect((messages[0]!.blocks[0] as { text: string }).text).toContain("<summary>\nwe counted to two\n</summary>");
      expect(messages.slice(1).map((m) => (m.blocks[0] as { text: string }).text)).toEqual(["three", "four", "five"]);
    }
    expect(reopen().messageCount).toBe(5);
  });

  test("refuses a compaction whose kept entry is not on the active branch", () => {
    const a = s.appendMessage(user("one"));
    const b = s.appendMessage(assistant("two"));
    s.moveLeaf(a);
    expect(() => s.appendCompaction({ summary: "x", keptId: b })).toThrow("not on the active branch");
  });

  test("messages() is a fresh array each time, so callers cannot change the session by accident", () => {
    s.appendMessage(user("one"));
    const first = s.messages();
    first.push(user("injected"));
    expect(texts(s)).toEqual(["one"]);
  });
});
