import { describe, expect, test } from "bun:test";
import {
  estimateTokens,
  keptIndex,
  needsCompaction,
  summaryRequestMessage,
  transcript,
} from "../../src/engine/compaction.ts";
import type { Message } from "../../src/providers/index.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", blocks: [{ type: "text", text }] });
const call = (id: string): Message => ({
  role: "assistant",
  blocks: [{ type: "tool_call", toolCallId: id, toolCallName: "shell", toolCallArguments: { command: "ls" } }],
});
const result = (id: string, text: string): Message => ({
  role: "user",
  blocks: [{ type: "tool_result", toolResultCallId: id, toolResult: [{ type: "text", text }] }],
});
const long = (n: number) => "x".repeat(n);

describe("compaction", () => {
  test("is needed when the history plus the reserve exceeds the window, and only when enabled with a window", () => {
    const policy = { enabled: true, reserveTokens: 200, keepRecentTokens: 50 };
    expect(needsCompaction(policy, 1000, 801)).toBe(true);
    expect(needsCompaction(policy, 1000, 800)).toBe(false);
    expect(needsCompaction(policy, undefined, 10_000)).toBe(false);
    expect(needsCompaction({ ...policy, enabled: false }, 1000, 10_000)).toBe(false);
  });

  test("estimates about four characters a token", () => {
    expect(estimateTokens(user(long(400)))).toBeGreaterThanOrEqual(100);
    expect(estimateTokens(user(long(400)))).toBeLessThan(120);
  });

  test("keeps the newest turns and cuts at the start of a turn", () => {
    const history = [user(long(400)), assistant(long(400)), user(long(400)), assistant(long(400)), user("now")];
    // About 100 tokens a long message: keeping 150 reaches back into the second turn, which is kept whole.
    expect(keptIndex(history, 150)).toBe(2);
  });

  test("never separates a tool call from its result", () => {
    const history = [
      user(long(400)),
      call("a"),
      result("a", long(800)),
      assistant(long(40)),
      user("next"),
      call("b"),
      result("b", long(800)),
    ];
    const kept = keptIndex(history, 100)!;
    expect(kept).toBe(4);
    expect(history[kept]).toEqual(user("next"));
  });

  test("keeps the current turn whole even when it alone is larger than the recent budget", () => {
    const history = [user("old"), assistant("old answer"), user("go"), call("a"), result("a", long(4000))];
    expect(keptIndex(history, 100)).toBe(2);
  });

  test("has nothing to condense when the whole history is one turn or fits the recent budget", () => {
    expect(keptIndex([user("go"), call("a"), result("a", long(4000))], 100)).toBeUndefined();
    expect(keptIndex([user("a"), assistant("b"), user("c")], 10_000)).toBeUndefined();
  });

  test("the summary request carries the conversation as a plain transcript", () => {
    const text = transcript([user("count words"), call("a"), result("a", "42"), assistant("42 words")]);
    expect(text).toBe(
      'User: count words\n\nAssistant called shell {"command":"ls"}\n\nTool result: 42\n\nAssistant: 42 words',
    );
    const message = summaryRequestMessage([user("hi")]);
    expect(message.role).toBe("user");
    expect(JSON.stringify(message)).toContain("<conversation>");
  });
});
