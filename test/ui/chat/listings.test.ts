import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/providers/index.ts";
import { recap } from "../../../src/ui/chat/recap.ts";
import { sessionLines } from "../../../src/ui/chat/session-lines.ts";

describe("the /sessions listing", () => {
  const rows = [
    {
      id: "01b",
      updatedAt: "2025-03-04T10:11:12.000Z",
      agent: "coder",
      model: "p/m",
      title: "Fix the parser so that it accepts every input we have seen in the wild",
      messageCount: 12,
    },
    { id: "01a", updatedAt: "not a time", agent: "planner", model: "p/m", title: "", messageCount: 0 },
  ];

  test("one line per session under a header, the current one marked", () => {
    const lines = sessionLines(rows, "01a", 200);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ +ID +UPDATED +AGENT +MSGS +TITLE$/);
    expect(lines[1]).toMatch(/^ {2}01b .* coder +12 +Fix the parser/);
    expect(lines[2]).toMatch(/^\* 01a +- +planner +0 +\(untitled\)$/);
  });

  test("titles are cut to the width", () => {
    for (const line of sessionLines(rows, null, 60)) expect(line.length).toBeLessThanOrEqual(60);
  });
});

describe("the recap of a resumed session", () => {
  const messages: Message[] = [
    { role: "user", blocks: [{ type: "text", text: "count the words" }] },
    {
      role: "assistant",
      blocks: [
        { type: "thinking", thinking: "hm" },
        { type: "tool_call", toolCallId: "c1", toolCallName: "word-count", toolCallArguments: { path: "a" } },
      ],
    },
    {
      role: "user",
      blocks: [{ type: "tool_result", toolResultCallId: "c1", toolResult: [{ type: "text", text: "4" }] }],
    },
    { role: "assistant", blocks: [{ type: "text", text: "4 words." }] },
  ];

  test("shows prompts, answers and tool calls, not results or thinking", () => {
    expect(recap(messages, 10)).toEqual({
      items: [
        { kind: "user", text: "count the words" },
        { kind: "tool", name: "word-count", arguments: { path: "a" } },
        { kind: "assistant", text: "4 words." },
      ],
      omitted: 0,
    });
  });

  test("a request that ended without an answer and a compaction summary are steps of their own", () => {
    const r = recap(
      [
        { role: "condensed" },
        { role: "user", blocks: [{ type: "text", text: "go" }] },
        { role: "ended", reason: "interrupted" },
      ],
      10,
    );
    expect(r.items).toEqual([
      { kind: "condensed" },
      { kind: "user", text: "go" },
      { kind: "ended", reason: "interrupted" },
    ]);
  });

  test("keeps only the last steps and says how many were left out", () => {
    const r = recap(messages, 2);
    expect(r.omitted).toBe(1);
    expect(r.items.map((i) => i.kind)).toEqual(["tool", "assistant"]);
  });
});

describe("the /help text", () => {
  test("lists every command and key, wrapped under its column at the width", async () => {
    const { helpText } = await import("../../../src/ui/chat/chat-commands.ts");
    const { plainStyle } = await import("../../../src/ui/chat/chat-style.ts");
    const text = helpText(plainStyle, 50);
    for (const usage of [
      "/help",
      "/new",
      "/sessions",
      "/resume [ID]",
      "/agent [NAME]",
      "/model [REF]",
      "/tools",
      "/exit",
      "Ctrl-C",
      "Ctrl-D",
      "Alt-Enter",
    ])
      expect(text).toContain(usage);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(50);
    expect(text).toContain("  /resume [ID]       continue a session of this\n                     workspace");
  });
});
