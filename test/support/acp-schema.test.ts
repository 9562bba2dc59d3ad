/** The ACP schema check catches what it must: a wrong field, a wrong result for the method answered, a response to nothing. */
import { expect, test } from "bun:test";
import { AcpSchemaCheck } from "./acp-schema.ts";

test("valid messages pass; a bad update, a result of the wrong shape and an unknown response are each caught", () => {
  const check = new AcpSchemaCheck();
  check.see("client", {
    jsonrpc: "2.0",
    id: 1,
    method: "session/prompt",
    params: { sessionId: "s", prompt: [{ type: "text", text: "hi" }] },
  } as never);
  check.see("agent", {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } },
  } as never);
  check.see("agent", { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } } as never);
  expect(check.problems).toEqual([]);

  check.see("agent", {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "c", status: "running" } },
  } as never);
  check.see("client", {
    jsonrpc: "2.0",
    id: 2,
    method: "session/prompt",
    params: { sessionId: "s", prompt: [] },
  } as never);
  check.see("agent", { jsonrpc: "2.0", id: 2, result: { stopReason: "done" } } as never);
  check.see("agent", { jsonrpc: "2.0", id: 99, result: {} } as never);
  expect(check.problems).toHaveLength(3);
  expect(check.problems[0]).toContain("SessionNotification");
  expect(check.problems[1]).toContain("PromptResponse");
  expect(check.problems[2]).toContain("answers no request seen");
});
