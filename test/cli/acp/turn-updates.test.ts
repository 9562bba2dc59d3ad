import { describe, expect, test } from "bun:test";
import { TurnUpdates } from "../../../src/cli/acp/turn-updates.ts";

describe("a turn's events as session updates", () => {
  test("text, thinking, a tool call with live output and its result; a subagent's calls under their parent's id, its text not", () => {
    const turn = new TurnUpdates({ workdir: "/w", notices: false });
    expect(turn.map({ type: "text_delta", text: "Hi" })).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } },
    ]);
    expect(turn.map({ type: "thinking_delta", thinking: "hm" })).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } },
    ]);
    expect(
      turn.map({ type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls", workdir: "sub" } }),
    ).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "ls",
        kind: "execute",
        status: "in_progress",
        locations: [],
        rawInput: { command: "ls", workdir: "sub" },
      },
    ]);
    turn.map({ type: "tool_output", id: "c1", name: "shell", stream: "stdout", text: "a\n" });
    expect(turn.map({ type: "tool_output", id: "c1", name: "shell", stream: "stderr", text: "b\n" })).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        content: [{ type: "content", content: { type: "text", text: "a\nb\n" } }],
      },
    ]);
    expect(turn.map({ type: "tool_result", id: "c1", name: "shell", text: "a\nb\n", isError: true })).toMatchObject([
      { toolCallId: "c1", status: "failed" },
    ]);
    expect(turn.map({ type: "text_delta", text: "sub", parent: "c9" })).toEqual([]);
    expect(turn.map({ type: "tool_call", id: "s1", name: "read", arguments: {}, parent: "c9" })).toMatchObject([
      { toolCallId: "c9/s1", kind: "read" },
    ]);
    turn.map({ type: "message_end", text: "", thinking: "", toolCalls: [], stopReason: "refusal" });
    expect(turn.lastStopReason).toBe("refusal");
  });

  test("live output is capped to its last 32 KB", () => {
    const turn = new TurnUpdates({ workdir: "/w", notices: false });
    turn.map({ type: "tool_output", id: "c", name: "shell", stream: "stdout", text: "x".repeat(40_000) });
    const [update] = turn.map({ type: "tool_output", id: "c", name: "shell", stream: "stdout", text: "END" });
    const text = JSON.stringify(update);
    expect(text).toContain("xEND");
    expect(text.length).toBeLessThan(33 * 1024);
  });

  test("notices: a notice update when the client shows them, else a quoted line of the message; a limit's end is told", () => {
    const withNotices = new TurnUpdates({ workdir: "/w", notices: true });
    expect(withNotices.map({ type: "notice", message: "m", title: "Saved", body: "to disk" })).toEqual([
      { sessionUpdate: "notice", severity: "info", title: "Saved", description: "to disk" },
    ]);
    const without = new TurnUpdates({ workdir: "/w", notices: false });
    expect(without.map({ type: "notice", message: "two\nlines" })).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\n> two\n> lines\n\n" } },
    ]);
    expect(
      without.ending({
        reason: "max_turns",
        message: "max_turns: 2 reached",
        usage: { inputTokens: 0, outputTokens: 0 },
      }),
    ).toMatchObject([{ content: { text: expect.stringContaining("max_turns: 2 reached") } }]);
    expect(without.ending({ reason: "end_turn", usage: { inputTokens: 0, outputTokens: 0 } })).toEqual([]);
  });
});
