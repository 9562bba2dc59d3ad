import { describe, expect, test } from "bun:test";
import { CUT_ANSWER_NOTES, MISSING_RESULT_TEXT, historyForRequest, snapshotForHooks } from "../../src/engine/index.ts";
import type { Message } from "../../src/providers/index.ts";

const call = (id: string) => ({ type: "tool_call" as const, toolCallId: id, toolCallName: "t", toolCallArguments: {} });
const result = (id: string, text = "ok") => ({
  type: "tool_result" as const,
  toolResultCallId: id,
  toolResult: [{ type: "text" as const, text }],
});
const text = (t: string) => ({ type: "text" as const, text: t });

describe("historyForRequest", () => {
  test("sends an answer cut short as it came, and opens the next user turn with the note saying so", () => {
    const history: Message[] = [
      { role: "user", blocks: [text("write an essay")] },
      { role: "assistant", blocks: [text("Rivers shape ")], interrupted: "user" },
      { role: "user", blocks: [text("go on")] },
      { role: "assistant", blocks: [text("the land.")] },
      { role: "user", blocks: [text("thanks")] },
    ];
    expect(historyForRequest(history)).toEqual([
      { role: "user", blocks: [text("write an essay")] },
      { role: "assistant", blocks: [text("Rivers shape ")] },
      { role: "user", blocks: [text(CUT_ANSWER_NOTES.user), text("go on")] },
      { role: "assistant", blocks: [text("the land.")] },
      { role: "user", blocks: [text("thanks")] },
    ]);
  });

  test("merges the per-call result messages of one round into one user message", () => {
    const history: Message[] = [
      { role: "user", blocks: [text("go")] },
      { role: "assistant", blocks: [call("a"), call("b")] },
      { role: "user", blocks: [result("a")] },
      { role: "user", blocks: [result("b")] },
    ];
    expect(historyForRequest(history)).toEqual([
      { role: "user", blocks: [text("go")] },
      { role: "assistant", blocks: [call("a"), call("b")] },
      { role: "user", blocks: [result("a"), result("b")] },
    ]);
  });

  test("answers calls left without a result (crash) before the next prompt", () => {
    const history: Message[] = [
      { role: "user", blocks: [text("go")] },
      { role: "assistant", blocks: [call("a"), call("b")] },
      { role: "user", blocks: [result("a")] },
      { role: "user", blocks: [text("again")] },
    ];
    const out = historyForRequest(history);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({
      role: "user",
      blocks: [
        result("a"),
        {
          type: "tool_result",
          toolResultCallId: "b",
          toolResult: [text(MISSING_RESULT_TEXT)],
          toolResultIsError: true,
        },
        text("again"),
      ],
    });
  });

  test("drops results whose call is not in the previous assistant message", () => {
    const history: Message[] = [
      { role: "user", blocks: [text("go")] },
      { role: "assistant", blocks: [text("hi")] },
      { role: "user", blocks: [result("zz"), text("next")] },
    ];
    expect(historyForRequest(history)[2]).toEqual({ role: "user", blocks: [text("next")] });
  });

  test("does not modify the messages it is given", () => {
    const history: Message[] = [
      { role: "user", blocks: [text("go")] },
      { role: "assistant", blocks: [call("a")] },
      { role: "user", blocks: [result("a")] },
      { role: "user", blocks: [text("more")] },
    ];
    const copy = structuredClone(history);
    historyForRequest(history);
    expect(history).toEqual(copy);
  });
});

describe("snapshotForHooks", () => {
  test("gives role and plain text of each message", () => {
    expect(
      snapshotForHooks([
        { role: "user", blocks: [text("a"), text("b")] },
        { role: "user", blocks: [result("x", "out")] },
      ]),
    ).toEqual([
      { role: "user", text: "a\nb" },
      { role: "user", text: "out" },
    ]);
  });
});
