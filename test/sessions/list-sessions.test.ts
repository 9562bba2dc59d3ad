import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Message } from "../../src/providers/types.ts";
import { listSessions } from "../../src/sessions/index.ts";
import { steppingClock, tempHome, createSession, openSession } from "./helpers.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });

describe("listing sessions", () => {
  let t: ReturnType<typeof tempHome>;
  const list = () => listSessions({ home: t.home, workdir: t.workdir });
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());

  test("is empty when there are no sessions (and no sessions directory)", () => {
    expect(list()).toEqual([]);
  });

  test("lists newest first by the time of the last entry, with counts, titles, agent and model", () => {
    const old = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "coder",
      model: "p/a",
      now: steppingClock(Date.UTC(2025, 0, 1)),
    });
    old.appendMessage(user("old question"));
    old.appendMessage(assistant("old answer"));
    const mid = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "coder",
      model: "p/a",
      now: steppingClock(Date.UTC(2025, 0, 2)),
    });
    mid.appendMessage(user("middle question"));
    const late = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "writer",
      model: "p/b",
      now: steppingClock(Date.UTC(2024, 11, 1)),
    });
    late.appendMessage(user("created first, used last"));
    // The session created first is touched last: it goes to the top.
    const continued = openSession({ home: t.home, id: late.id, now: () => Date.UTC(2025, 0, 3) });
    continued.appendMessage(assistant("answer"));
    expect(list().map((s) => [s.id, s.title, s.messageCount, s.agent, s.model])).toEqual([
      [late.id, "created first, used last", 2, "writer", "p/b"],
      [mid.id, "middle question", 1, "coder", "p/a"],
      [old.id, "old question", 2, "coder", "p/a"],
    ]);
    const [top] = list();
    expect(top).toEqual({
      id: late.id,
      path: late.path,
      workdir: t.workdir,
      createdAt: "2024-12-01T00:00:00.000Z",
      updatedAt: "2025-01-03T00:00:00.000Z",
      agent: "writer",
      model: "p/b",
      title: "created first, used last",
      messageCount: 2,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: null,
      problem: null,
    });
  });

  test("sums the tokens and cost of every answer, also when the listing index resumes a grown file", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user('question with "responseUsage":{"inputTokens":999} in it'));
    s.appendMessage(assistant("one"), {
      responseUsage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 100 },
      responseCost: 0.0012,
    });
    expect(list()[0]).toMatchObject({
      usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 100 },
      cost: 0.0012,
    });
    s.appendMessage(user("more"));
    s.appendMessage(assistant("two"), {
      responseUsage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1000 },
      responseCost: 0.0008,
    });
    s.appendMessage(assistant("three, no prices"), { responseUsage: { inputTokens: 10, outputTokens: 1 } });
    expect(list()[0]).toMatchObject({
      usage: { inputTokens: 2210, outputTokens: 81, cacheReadTokens: 1800, cacheWriteTokens: 100 },
      cost: 0.002,
    });
  });

  test("orders sessions updated at the same moment by id, newest id first", () => {
    const now = () => Date.UTC(2025, 0, 1);
    const ids = [0, 1, 2].map(
      () => createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m", now }).id,
    );
    expect(list().map((s) => s.id)).toEqual([...ids].sort().reverse());
  });

  test("reflects title entries and agent/model switches", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("first prompt"));
    expect(list()[0]).toMatchObject({ title: "first prompt", agent: "coder", model: "p/a" });
    s.appendAgent("planner");
    s.appendModel("p/b");
    s.appendTitle("Named");
    expect(list()[0]).toMatchObject({ title: "Named", agent: "planner", model: "p/b", messageCount: 1 });
    s.appendTitle("");
    expect(list()[0]!.title).toBe("first prompt");
  });

  test("shows only this workspace's sessions", () => {
    const other = join(dirname(t.workdir), "other");
    createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" }).appendMessage(user("here"));
    createSession({ home: t.home, workdir: other, agent: "a", model: "p/m" }).appendMessage(user("there"));
    expect(list().map((s) => s.title)).toEqual(["here"]);
    expect(listSessions({ home: t.home, workdir: other }).map((s) => s.title)).toEqual(["there"]);
  });

  test("stays right as sessions grow between listings (the index resumes where it stopped)", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    expect(list()[0]!.messageCount).toBe(0);
    expect(list()[0]!.title).toBe("");
    for (let i = 1; i <= 5; i++) {
      s.appendMessage(i % 2 ? user(`q${i}`) : assistant(`a${i}`));
      expect(list()[0]).toMatchObject({ messageCount: i, title: "q1" });
    }
  });

  test("rescans a file rewritten under the same name", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("original"));
    expect(list()[0]!.title).toBe("original");
    const header = readFileSync(s.path, "utf8").split("\n")[0]!;
    const replacement = `${header}\n${JSON.stringify({ kind: "message", id: "x1", parentId: null, createdAt: "2030-01-01T00:00:00Z", role: "user", blocks: [{ type: "text", text: "replaced text, longer than before" }] })}\n`;
    writeFileSync(s.path, replacement);
    expect(list()[0]).toMatchObject({ title: "replaced text, longer than before", messageCount: 1 });
  });

  test("ignores a broken index and writes a fresh one, 0600", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("hello"));
    const index = join(dirname(s.path), ".index.json");
    writeFileSync(index, "{not json");
    expect(list()[0]!.title).toBe("hello");
    expect(JSON.parse(readFileSync(index, "utf8")).version).toBe(4);
    expect(statSync(index).mode & 0o777).toBe(0o600);
  });

  test("answers from the index for a file that did not change", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    s.appendMessage(user("real title"));
    list();
    const index = join(dirname(s.path), ".index.json");
    const cached = JSON.parse(readFileSync(index, "utf8"));
    cached.files[`${s.id}.jsonl`].state.firstPrompt = "from the index";
    writeFileSync(index, JSON.stringify(cached));
    expect(list()[0]!.title).toBe("from the index");
    // Touching the file invalidates the record.
    const later = new Date(Date.now() + 5000);
    utimesSync(s.path, later, later);
    expect(list()[0]!.title).toBe("real title");
  });

  test("leaves out files cut off while being created and dot-files; marks a file whose header is garbage", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    writeFileSync(join(dirname(s.path), "notes.jsonl"), "hello\n");
    writeFileSync(join(dirname(s.path), "empty.jsonl"), "");
    writeFileSync(join(dirname(s.path), "torn.jsonl"), '{"kind":"header","ver');
    writeFileSync(join(dirname(s.path), ".hidden.jsonl"), readFileSync(s.path));
    writeFileSync(join(dirname(s.path), "README.md"), "x");
    const byId = new Map(list().map((x) => [x.id, x.problem]));
    expect([...byId.keys()].sort()).toEqual(["notes", s.id].sort());
    expect(byId.get(s.id)).toBeNull();
    expect(byId.get("notes")).toBe('line 1 is not valid JSON, so it is not a session header (it begins "hello")');
  });

  test("marks sessions that cannot be loaded, saying why, without decoding every line", () => {
    const dir = () => dirname(createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" }).path);
    const good = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    good.appendMessage(user("fine"));
    const torn = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    torn.appendMessage(user("first"));
    appendFileSync(torn.path, '{"kind":"message","id":"x","role":"user","blo\n');
    torn.appendMessage(user("after the damage"));
    const foreign = join(dir(), "foreign.jsonl");
    writeFileSync(foreign, '{"kind":"message","id":"a","role":"user","blocks":[]}\n');
    const future = join(dir(), "future.jsonl");
    writeFileSync(future, '{"kind":"header","version":7,"id":"future","agent":"coder","model":"p/a"}\n');
    const problems = new Map(list().map((x) => [x.id, x.problem]));
    expect(problems.get(good.id)).toBeNull();
    expect(problems.get(torn.id)).toBe("line 3 is not valid JSON");
    expect(problems.get("foreign")).toBe(
      'line 1 is not a session header: its "kind" is "message" (a session file starts with {"kind":"header",...})',
    );
    expect(problems.get("future")).toBe("unsupported session format version 7 (this Rienda reads version 1)");
    // Loading says the same, with the file.
    expect(() => openSession({ home: t.home, id: torn.id })).toThrow(
      `session file ${torn.path}, line 3: not valid JSON`,
    );
    expect(() => openSession({ home: t.home, id: "foreign" })).toThrow(
      `session file ${foreign}: line 1 is not a session header: its "kind" is "message"`,
    );
    // A damaged line in what a file grew by is found too, with its line number.
    good.appendMessage(user("more"));
    list();
    appendFileSync(good.path, "garbage\n");
    good.appendMessage(user("after"));
    expect(new Map(list().map((x) => [x.id, x.problem])).get(good.id)).toBe("line 4 is not valid JSON");
  });

  test("counts hand-written lines in any key order and ignores a torn tail", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });
    appendFileSync(
      s.path,
      `{"role":"user","blocks":[{"text":"reordered","type":"text"}],"id":"h1","kind":"message","createdAt":"2025-05-05T00:00:00Z"}\n`,
    );
    appendFileSync(s.path, `{"agent":"planner","kind":"agent","id":"h2","parentId":"h1"}\n`);
    appendFileSync(s.path, `{"kind":"message","id":"h3","parentId":"h1","role":"assistant","blo`);
    expect(list()[0]).toMatchObject({ title: "reordered", messageCount: 1, agent: "planner" });
    expect(openSession({ home: t.home, id: s.id }).messageCount).toBe(1);
  });
});
