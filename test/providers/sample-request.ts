/** A canonical request exercising every block kind, shared by the request-building tests. */
import type { ModelRequest, ResolvedModel, ToolSpec } from "../../src/providers/types.ts";

/** A model with only the required settings; tests spread what they need over it. */
export function sampleModel(overrides: Partial<ResolvedModel> = {}): ResolvedModel {
  return {
    ref: "local/test",
    provider: "local",
    alias: "test",
    wireId: "wire-model-1",
    protocol: "openai_chat_completions",
    baseUrl: "http://127.0.0.1:1234/v1",
    apiKey: "sk-test",
    headers: {},
    ...overrides,
  };
}

export const WORD_COUNT: ToolSpec = {
  name: "word-count",
  description: "Counts words in a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** user → assistant (thinking, text, two calls, one with garbled arguments) → results + text → answer → user. */
export function sampleRequest(model: Partial<ResolvedModel> = {}, tools: ToolSpec[] = [WORD_COUNT]): ModelRequest {
  return {
    model: sampleModel(model),
    system: "You are terse.",
    sessionId: "sess-42",
    tools,
    messages: [
      { role: "user", blocks: [{ type: "text", text: "count words in notes.txt" }] },
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "plan it", signature: "sig-1" },
          { type: "text", text: "Counting." },
          { type: "tool_call", toolCallId: "c1", toolCallName: "word-count", toolCallArguments: { path: "notes.txt" } },
          { type: "tool_call", toolCallId: "c2", toolCallName: "shell", toolCallArguments: '{"command": "wc' },
        ],
      },
      {
        role: "user",
        blocks: [
          { type: "tool_result", toolResultCallId: "c1", toolResult: [{ type: "text", text: "42 words" }] },
          {
            type: "tool_result",
            toolResultCallId: "c2",
            toolResult: [{ type: "text", text: "invalid JSON arguments" }],
            toolResultIsError: true,
          },
          { type: "text", text: "also say hi" },
        ],
      },
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "no signature here" },
          { type: "text", text: "notes.txt has 42 words. Hi!" },
        ],
      },
      { role: "user", blocks: [{ type: "text", text: "thanks" }] },
    ],
  };
}
