/**
 * A session written by Go Rienda, by hand from contract.md §6 and the Go
 * program's conventions (ULID ids, RFC 3339 times with nanoseconds, zero
 * fields omitted, `thinkingSignature`, `itemId`, `tag` entries, redacted
 * thinking), must load and continue unchanged.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions, workspaceHash } from "../../src/sessions/index.ts";
import { tempHome, openSession } from "./helpers.ts";

const ID = "01jq3v8m6w2k4x9c7b5pv3q2fm";
const lines = (workdir: string) => [
  {
    kind: "header",
    version: 1,
    id: ID,
    createdAt: "2025-03-04T10:11:12.123456789Z",
    agent: "coder",
    model: "openrouter/kimi-k2",
    workdir,
  },
  {
    kind: "message",
    id: "01jq3v8m6w8d2m4xj6q7r5s9za",
    createdAt: "2025-03-04T10:11:13.5Z",
    role: "user",
    blocks: [{ type: "text", text: "Fix the bug in parser.go" }],
  },
  {
    kind: "message",
    id: "01jq3v8m6wa9e5n6yk8r7s6t0b",
    parentId: "01jq3v8m6w8d2m4xj6q7r5s9za",
    createdAt: "2025-03-04T12:11:20.000000001+02:00",
    role: "assistant",
    itemId: "msg_123",
    responseModel: "moonshotai/kimi-k2",
    responseStopReason: "tool_use",
    responseUsage: { inputTokens: 812, outputTokens: 44 },
    blocks: [
      { type: "thinking", thinking: "Look at the file first.", thinkingSignature: "EqQBCkgIAR", thinkingId: "rs_1" },
      { type: "redacted_thinking", thinkingRedactedData: "opaque" },
      {
        type: "tool_call",
        toolCallId: "call_7",
        toolCallName: "shell",
        toolCallArguments: { command: "cat parser.go" },
      },
    ],
  },
  { kind: "tag", targetId: "01jq3v8m6wa9e5n6yk8r7s6t0b", createdAt: "2025-03-04T10:11:21Z", tag: "bug" },
  {
    kind: "message",
    id: "01jq3v8m6wb0000000000000c1",
    parentId: "01jq3v8m6wa9e5n6yk8r7s6t0b",
    createdAt: "2025-03-04T10:11:22Z",
    role: "user",
    blocks: [
      { type: "tool_result", toolResultCallId: "call_7", toolResult: [{ type: "text", text: "package parser" }] },
    ],
  },
  {
    kind: "message",
    id: "01jq3v8m6wb0000000000000c2",
    parentId: "01jq3v8m6wb0000000000000c1",
    createdAt: "2025-03-04T10:11:30Z",
    role: "assistant",
    responseStopReason: "end_turn",
    blocks: [{ type: "text", text: "Fixed." }],
  },
  { kind: "title", createdAt: "2025-03-04T10:12:00Z", title: "Parser bug" },
];

describe("a session written by Go Rienda", () => {
  let t: ReturnType<typeof tempHome>;
  let path: string;
  beforeEach(() => {
    t = tempHome();
    mkdirSync(t.workdir, { recursive: true });
    const dir = join(t.home, ".rienda", "sessions", "go-style-dir-name-is-not-ours-" + "00000000");
    path = join(dir, `${ID}.jsonl`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path,
      lines(t.workdir)
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n",
    );
  });
  afterEach(() => t.dispose());

  test("loads with its header, title and canonical messages", () => {
    const s = openSession({ home: t.home, id: ID, workdir: t.workdir });
    expect(s.path).toBe(path);
    expect(s.header.createdAt).toBe("2025-03-04T10:11:12.123456789Z");
    expect([s.agent, s.model, s.title]).toEqual(["coder", "openrouter/kimi-k2", "Parser bug"]);
    expect(s.messages()).toEqual([
      { role: "user", blocks: [{ type: "text", text: "Fix the bug in parser.go" }] },
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "Look at the file first.", signature: "EqQBCkgIAR" },
          {
            type: "tool_call",
            toolCallId: "call_7",
            toolCallName: "shell",
            toolCallArguments: { command: "cat parser.go" },
          },
        ],
      },
      {
        role: "user",
        blocks: [
          { type: "tool_result", toolResultCallId: "call_7", toolResult: [{ type: "text", text: "package parser" }] },
        ],
      },
      { role: "assistant", blocks: [{ type: "text", text: "Fixed." }] },
    ]);
    const assistant = s.branch()[1]!;
    expect(assistant.kind === "message" && assistant.responseUsage).toEqual({ inputTokens: 812, outputTokens: 44 });
  });

  test("continues: a new message hangs from the Go leaf and the Go lines stay byte for byte", () => {
    const before = readFileSync(path, "utf8");
    const s = openSession({ home: t.home, id: ID });
    s.appendMessage({ role: "user", blocks: [{ type: "text", text: "thanks" }] });
    const after = readFileSync(path, "utf8");
    expect(after.startsWith(before)).toBe(true);
    const last = JSON.parse(after.trimEnd().split("\n").pop()!);
    expect(last.parentId).toBe("01jq3v8m6wb0000000000000c2");
    expect(openSession({ home: t.home, id: ID }).messages()).toHaveLength(5);
  });

  test("is listed in its workspace when its directory carries the workspace hash", () => {
    const dir = join(t.home, ".rienda", "sessions", `-literal-spelling-${workspaceHash(t.workdir)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${ID}.jsonl`), readFileSync(path));
    const [summary] = listSessions({ home: t.home, workdir: t.workdir });
    expect(summary).toMatchObject({
      id: ID,
      title: "Parser bug",
      agent: "coder",
      model: "openrouter/kimi-k2",
      messageCount: 4,
      updatedAt: "2025-03-04T10:12:00Z",
    });
  });
});
