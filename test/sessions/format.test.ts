import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Message } from "../../src/providers/types.ts";
import { workspaceDir } from "../../src/sessions/index.ts";
import { steppingClock, steppingIds, tempHome, createSession, openSession } from "./helpers.ts";

const everyBlock: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "count the words in README.md\nplease" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "I should call the tool.", signature: "sig-abc" },
      { type: "thinking", thinking: "no signature here" },
      { type: "thinking", thinking: "", redactedData: "EqkECkYIBxgCKkA8" },
      { type: "thinking", thinking: "**Plan**", encryptedReasoning: { id: "rs_01", content: "gAAAAABp" } },
      { type: "text", text: "Let me look. «ünïcødé» 🚀" },
      {
        type: "tool_call",
        toolCallId: "call_1",
        toolCallName: "word-count",
        toolCallArguments: { path: "README.md", deep: [1, { x: null }] },
      },
      { type: "tool_call", toolCallId: "call_2", toolCallName: "shell", toolCallArguments: "not json {" },
    ],
  },
  {
    role: "user",
    blocks: [
      { type: "tool_result", toolResultCallId: "call_1", toolResult: [{ type: "text", text: "42" }] },
      {
        type: "tool_result",
        toolResultCallId: "call_2",
        toolResult: [
          { type: "text", text: "boom" },
          { type: "text", text: "line 2" },
        ],
        toolResultIsError: true,
      },
    ],
  },
  { role: "assistant", blocks: [{ type: "text", text: "There are 42 words." }] },
];

describe("the session file format", () => {
  let t: ReturnType<typeof tempHome>;
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());

  test("writes the header as line 1 with the contract's fields in order", () => {
    const s = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "coder",
      model: "local/llama",
      now: steppingClock(),
    });
    const lines = readFileSync(s.path, "utf8").split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    expect(lines[0]).toBe(
      `{"kind":"header","version":1,"id":"${s.id}","createdAt":"2025-01-02T03:04:05.000Z","agent":"coder","model":"local/llama","workdir":${JSON.stringify(t.workdir)}}`,
    );
    expect(s.path).toBe(`${workspaceDir(t.home, t.workdir)}/${s.id}.jsonl`);
  });

  test("writes a message entry with id, parentId, createdAt, role, blocks and the response fields", () => {
    const s = createSession({
      home: t.home,
      workdir: t.workdir,
      agent: "coder",
      model: "local/llama",
      ids: steppingIds(),
      now: steppingClock(),
    });
    const first = s.appendMessage({ role: "user", blocks: [{ type: "text", text: "hi" }] });
    const second = s.appendMessage(
      { role: "assistant", blocks: [{ type: "text", text: "hello" }] },
      {
        responseModel: "llama3.1:8b",
        responseStopReason: "end_turn",
        responseUsage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 },
      },
    );
    const lines = readFileSync(s.path, "utf8").trimEnd().split("\n");
    expect(lines[1]).toBe(
      `{"kind":"message","id":"${first}","parentId":null,"createdAt":"2025-01-02T03:04:06.000Z","role":"user","blocks":[{"type":"text","text":"hi"}]}`,
    );
    expect(JSON.parse(lines[2]!)).toEqual({
      kind: "message",
      id: second,
      parentId: first,
      createdAt: "2025-01-02T03:04:07.000Z",
      role: "assistant",
      blocks: [{ type: "text", text: "hello" }],
      responseModel: "llama3.1:8b",
      responseStopReason: "end_turn",
      responseUsage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 },
    });
    expect(Object.keys(JSON.parse(lines[2]!))).toEqual([
      "kind",
      "id",
      "parentId",
      "createdAt",
      "role",
      "blocks",
      "responseModel",
      "responseStopReason",
      "responseUsage",
    ]);
  });

  test("round-trips blocks of every type through the file unchanged", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    for (const m of everyBlock) s.appendMessage(m);
    expect(s.messages()).toEqual(everyBlock);
    const again = openSession({ home: t.home, id: s.id, workdir: t.workdir });
    expect(again.messages()).toEqual(everyBlock);
    expect(again.header).toEqual(s.header);
  });

  test("round-trips the response metadata of assistant messages", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    s.appendMessage({ role: "user", blocks: [{ type: "text", text: "q" }] });
    const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 1, cacheWriteTokens: 2, reasoningTokens: 3 };
    s.appendMessage(
      { role: "assistant", blocks: [{ type: "text", text: "a" }] },
      { responseModel: "m", responseStopReason: "max_tokens", responseUsage: usage, responseCost: 0.001234 },
    );
    const again = openSession({ home: t.home, id: s.id });
    const entry = again.branch()[1]!;
    expect(entry.kind).toBe("message");
    if (entry.kind !== "message") return;
    expect(entry.responseModel).toBe("m");
    expect(entry.responseStopReason).toBe("max_tokens");
    expect(entry.responseUsage).toEqual(usage);
    expect(entry.responseCost).toBe(0.001234);
  });

  test("never writes properties that are not part of the format", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    const message = {
      role: "user",
      blocks: [{ type: "text", text: "x", secret: "leak" }],
      extra: 1,
    } as unknown as Message;
    s.appendMessage(message);
    const text = readFileSync(s.path, "utf8");
    expect(text).not.toContain("leak");
    expect(text).not.toContain("extra");
  });

  test("refuses messages without blocks or with an unknown role, writing nothing", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    const before = readFileSync(s.path, "utf8");
    expect(() => s.appendMessage({ role: "assistant", blocks: [] })).toThrow("without blocks");
    expect(() =>
      s.appendMessage({ role: "system", blocks: [{ type: "text", text: "x" }] } as unknown as Message),
    ).toThrow("role");
    expect(readFileSync(s.path, "utf8")).toBe(before);
  });

  test("creates directories 0700 and files 0600", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    s.appendMessage({ role: "user", blocks: [{ type: "text", text: "x" }] });
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(s.path)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dirname(s.path))).mode & 0o777).toBe(0o700);
  });

  test("ends every entry with a newline, one entry per line", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "local/llama" });
    for (const m of everyBlock) s.appendMessage(m);
    s.appendTitle("named");
    s.appendAgent("planner");
    s.appendModel("other/model");
    const text = readFileSync(s.path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + everyBlock.length + 3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
