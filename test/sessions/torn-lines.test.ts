import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Message } from "../../src/providers/types.ts";
import { listSessions } from "../../src/sessions/index.ts";
import { tempHome, createSession, openSession } from "./helpers.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });

/** Every line of the file parses and the file ends with a newline. */
function expectWholeLines(path: string): void {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.slice(0, -1).split("\n")) expect(() => JSON.parse(line)).not.toThrow();
}

describe("torn lines", () => {
  let t: ReturnType<typeof tempHome>;
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());

  test("a last line cut at any byte is ignored on load and cut away before the next append", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("first"));
    s.appendMessage(assistant("second"));
    const whole = readFileSync(s.path);
    s.appendMessage({
      role: "user",
      blocks: [
        { type: "text", text: "torn «ñ» 🚀 end" },
        { type: "tool_result", toolResultCallId: "c1", toolResult: [{ type: "text", text: "r" }] },
      ],
    });
    const full = readFileSync(s.path);
    const lastLine = full.subarray(whole.length);
    // Every cut that loses at least the closing brace: 1..len-2 bytes kept (len-1 keeps all but the newline).
    for (let keep = 1; keep < lastLine.length - 1; keep++) {
      writeFileSync(s.path, Buffer.concat([whole, lastLine.subarray(0, keep)]));
      const loaded = openSession({ home: t.home, id: s.id, workdir: t.workdir });
      expect(loaded.messages()).toEqual([user("first"), assistant("second")]);
      expect(listSessions({ home: t.home, workdir: t.workdir })[0]!.messageCount).toBe(2);
      loaded.appendMessage(user("after the crash"));
      expectWholeLines(s.path);
      expect(readFileSync(s.path).subarray(0, whole.length)).toEqual(whole);
      expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([
        user("first"),
        assistant("second"),
        user("after the crash"),
      ]);
    }
  });

  test("a whole last line missing only its newline is kept, and the next entry starts on a new line", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("first"));
    const text = readFileSync(s.path, "utf8");
    writeFileSync(s.path, text.slice(0, -1));
    const loaded = openSession({ home: t.home, id: s.id });
    expect(loaded.messages()).toEqual([user("first")]);
    loaded.appendMessage(assistant("second"));
    expectWholeLines(s.path);
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([user("first"), assistant("second")]);
  });

  test("a whole last line (with its newline) that is not JSON is an error, and the file is left as it was (issue 39)", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("first"));
    appendFileSync(s.path, '{"kind":"message","id":"x"\n');
    const before = readFileSync(s.path, "utf8");
    expect(() => openSession({ home: t.home, id: s.id })).toThrow(
      `session file ${s.path}, line 3: not valid JSON (a whole line, ended by a newline, so not one a crash cut short`,
    );
    expect(readFileSync(s.path, "utf8")).toBe(before);
  });

  test("a broken line before the last one is an error naming the file and the line", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("first"));
    appendFileSync(s.path, "garbage\n");
    s.appendMessage(user("second"));
    expect(() => openSession({ home: t.home, id: s.id })).toThrow(`session file ${s.path}, line 3: not valid JSON`);
  });

  test("a file cut while its header was written cannot be opened and is left out of the listing", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    const header = readFileSync(s.path);
    for (const keep of [0, 1, 20, header.length - 2]) {
      writeFileSync(s.path, header.subarray(0, keep));
      expect(() => openSession({ home: t.home, id: s.id })).toThrow(
        keep === 0
          ? `session file ${s.path}: it is empty (it was cut off while being created)`
          : `session file ${s.path}: it has no complete header line (it was cut off while being created)`,
      );
      expect(listSessions({ home: t.home, workdir: t.workdir })).toEqual([]);
    }
  });

  test("a header missing only its newline still opens (a hand-written file)", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    writeFileSync(s.path, readFileSync(s.path, "utf8").trimEnd());
    const loaded = openSession({ home: t.home, id: s.id });
    loaded.appendMessage(user("hi"));
    expectWholeLines(s.path);
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([user("hi")]);
  });

  test("an append to a file deleted under the session fails and does not recreate it headerless", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    rmSync(s.path);
    expect(() => s.appendMessage(user("x"))).toThrow(`cannot write session file ${s.path}`);
    expect(() => readFileSync(s.path)).toThrow();
  });

  test("unknown entry kinds are ignored on load, and entries may hang from them", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    const a = s.appendMessage(user("first"));
    appendFileSync(s.path, `{"kind":"bookmark","targetId":"${a}","note":"look"}\n`);
    appendFileSync(s.path, `{"kind":"checkpoint","id":"cp1","parentId":"${a}","createdAt":"2025-01-01T00:00:00Z"}\n`);
    appendFileSync(
      s.path,
      `{"kind":"message","id":"m2","parentId":"cp1","createdAt":"2025-01-01T00:00:01Z","role":"assistant","blocks":[{"type":"text","text":"second"}]}\n`,
    );
    appendFileSync(s.path, `"a string"\n[1,2]\n{"no":"kind"}\n`);
    const loaded = openSession({ home: t.home, id: s.id });
    expect(loaded.messages()).toEqual([user("first"), assistant("second")]);
    loaded.appendMessage(user("third"));
    expect(openSession({ home: t.home, id: s.id }).messages()).toHaveLength(3);
  });

  test("blank lines are skipped", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    appendFileSync(s.path, "\n   \n");
    s.appendMessage(user("first"));
    appendFileSync(s.path, "\r\n");
    expect(openSession({ home: t.home, id: s.id }).messages()).toEqual([user("first")]);
  });
});
