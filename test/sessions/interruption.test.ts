/**
 * An interrupted run is recorded in the session and shown to the model as a
 * request answered by a marker, so the next prompt is a message of its own;
 * a reader that ignores the entry (Go Rienda) still loads the file whole.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import type { Message } from "../../src/providers/types.ts";
import {
  FAILED_REQUEST_TEXT,
  interruptionMessage,
  INTERRUPTION_TEXT,
  type SessionFile,
} from "../../src/sessions/index.ts";
import { createSession, openSession, tempHome } from "./helpers.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });

describe("interruptions", () => {
  let t: ReturnType<typeof tempHome>;
  let s: SessionFile;
  beforeEach(() => {
    t = tempHome();
    s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
  });
  afterEach(() => {
    s.close();
    t.dispose();
  });

  test("an interrupted prompt is followed by the marker, and the next prompt is a message of its own", () => {
    const first = s.appendMessage(user("delete every file"));
    s.appendInterruption();
    expect(s.leafId).toBe(first);
    expect(s.messages()).toEqual([user("delete every file"), interruptionMessage()]);
    s.appendMessage(user("never mind"));
    const expected = [user("delete every file"), interruptionMessage(), user("never mind")];
    expect(s.messages()).toEqual(expected);
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual(expected);
    expect(INTERRUPTION_TEXT).toContain("interrupted");
  });

  test("an interruption after tool results shows after them; after an answer it adds nothing", () => {
    s.appendMessage(user("go"));
    s.appendMessage({
      role: "assistant",
      blocks: [{ type: "tool_call", toolCallId: "c1", toolCallName: "shell", toolCallArguments: {} }],
    });
    s.appendMessage({
      role: "user",
      blocks: [
        {
          type: "tool_result",
          toolResultCallId: "c1",
          toolResult: [{ type: "text", text: "cut" }],
          toolResultIsError: true,
        },
      ],
    });
    s.appendInterruption();
    s.appendMessage(user("next"));
    s.appendMessage(assistant("done"));
    s.appendInterruption();
    const roles = openSession({ home: t.home, id: s.id })
      .messages()
      .map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
  });

  test("the entry is written as documented and nothing hangs from it, so a reader that ignores it loses nothing", () => {
    const prompt = s.appendMessage(user("delete every file"));
    s.appendInterruption();
    s.appendMessage(user("never mind"));
    s.close();
    const lines = readFileSync(s.path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const entry = lines.find((l) => l.kind === "interruption");
    expect(Object.keys(entry)).toEqual(["kind", "id", "parentId", "createdAt"]);
    expect(entry.parentId).toBe(prompt);
    const next = lines.at(-1);
    expect(next.parentId).toBe(prompt);
    // What a reader that drops unknown kinds sees: the same conversation, without the marker.
    writeFileSync(
      s.path,
      lines
        .filter((l) => l.kind !== "interruption")
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(""),
    );
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([
      { role: "user", blocks: [{ type: "text", text: "delete every file" }] },
      { role: "user", blocks: [{ type: "text", text: "never mind" }] },
    ]);
  });

  test("a failed request is recorded with reason error and shown as failed, not as interrupted by the user", () => {
    const prompt = s.appendMessage(user("delete every file"));
    s.appendInterruption("error");
    s.appendMessage(user("never mind"));
    s.close();
    const entry = readFileSync(s.path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.kind === "interruption");
    expect(entry).toMatchObject({ parentId: prompt, reason: "error" });
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([
      user("delete every file"),
      interruptionMessage("error"),
      user("never mind"),
    ]);
    expect(interruptionMessage("error").blocks).toEqual([{ type: "text", text: FAILED_REQUEST_TEXT }]);
    expect(FAILED_REQUEST_TEXT).toContain("failed");
  });

  test("no interruption is recorded before the first message", () => {
    s.appendInterruption();
    s.close();
    expect(readFileSync(s.path, "utf8").trim().split("\n")).toHaveLength(1);
  });
});
