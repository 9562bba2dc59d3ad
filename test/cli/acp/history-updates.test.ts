import { expect, test } from "bun:test";
import { historyUpdates } from "../../../src/cli/acp/history-updates.ts";

test("a session's history replayed: messages, attachments, tool calls and results, and what stands in for lost turns", () => {
  const updates = historyUpdates(
    [
      { role: "condensed" },
      {
        role: "user",
        blocks: [
          { type: "text", text: "look" },
          { type: "attachment", name: "dot.png", mediaType: "image/png", data: "AAAA" },
          { type: "attachment", name: "/abs/n.txt", mediaType: "text/plain", text: "note" },
        ],
      },
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "hm" },
          { type: "text", text: "ok" },
          { type: "tool_call", toolCallId: "c1", toolCallName: "shell", toolCallArguments: { command: "ls" } },
        ],
      },
      {
        role: "user",
        blocks: [
          {
            type: "tool_result",
            toolResultCallId: "c1",
            toolResult: [{ type: "text", text: "a" }],
            toolResultIsError: false,
          },
        ],
      },
      { role: "ended", reason: "interrupted" },
    ],
    "/w",
  );
  expect(updates).toEqual([
    {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "(Earlier turns were condensed into a summary.)" },
    },
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: "look" } },
    {
      sessionUpdate: "user_message_chunk",
      content: { type: "image", mimeType: "image/png", data: "AAAA", uri: "file:///w/dot.png" },
    },
    {
      sessionUpdate: "user_message_chunk",
      content: { type: "resource", resource: { uri: "file:///abs/n.txt", mimeType: "text/plain", text: "note" } },
    },
    { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } },
    {
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "ls",
      kind: "execute",
      status: "in_progress",
      locations: [],
      rawInput: { command: "ls" },
    },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "a" } }],
    },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "(Interrupted.)" } },
  ]);
});
