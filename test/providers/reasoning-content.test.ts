/**
 * Chat Completions with `sendThinking` (DeepSeek and Kimi thinking modes):
 * which assistant messages carry their thinking back as `reasoning_content`.
 */
import { describe, expect, test } from "bun:test";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import type { Message, ModelRequest } from "../../src/providers/types.ts";
import { sampleModel, WORD_COUNT } from "./sample-request.ts";

const user = (text: string): Message => ({ role: "user", blocks: [{ type: "text", text }] });
const results = (id: string): Message => ({
  role: "user",
  blocks: [{ type: "tool_result", toolResultCallId: id, toolResult: [{ type: "text", text: "42" }] }],
});

/** Turn 1 calls a tool twice (the second call's message has no thinking), turn 2 answers without tools, turn 3 is the new prompt. */
const CONVERSATION: Message[] = [
  user("count words in a.txt and b.txt"),
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "a.txt first" },
      { type: "tool_call", toolCallId: "c1", toolCallName: "word-count", toolCallArguments: { path: "a.txt" } },
    ],
  },
  results("c1"),
  {
    role: "assistant",
    blocks: [{ type: "tool_call", toolCallId: "c2", toolCallName: "word-count", toolCallArguments: { path: "b.txt" } }],
  },
  results("c2"),
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "both known" },
      { type: "text", text: "84 words." },
    ],
  },
  user("and in words?"),
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "spell it" },
      { type: "text", text: "Eighty-four." },
    ],
  },
  user("thanks"),
];

function request(sendThinking: boolean | undefined, messages: Message[] = CONVERSATION): ModelRequest {
  const model = sampleModel({ wireId: "deepseek-reasoner", baseUrl: "https://api.deepseek.com" });
  if (sendThinking !== undefined) model.sendThinking = sendThinking;
  return { model, system: "", messages, tools: [WORD_COUNT], sessionId: "s-1" };
}

function assistants(spec: ReturnType<typeof buildOpenAIChatRequest>): Array<Record<string, unknown>> {
  return (spec.body.messages as Array<Record<string, unknown>>).filter((m) => m.role === "assistant");
}

describe("reasoning_content sent back (sendThinking)", () => {
  test("every assistant message of a turn that called tools carries its thinking, an empty string when it had none; other turns carry none", () => {
    const sent = assistants(buildOpenAIChatRequest(request(true)));
    expect(sent.map((m) => ("reasoning_content" in m ? m.reasoning_content : "(absent)"))).toEqual([
      "a.txt first",
      "",
      "both known",
      "(absent)",
    ]);
    expect(sent[0]).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "a.txt first",
      tool_calls: [{ id: "c1", type: "function", function: { name: "word-count", arguments: '{"path":"a.txt"}' } }],
    });
  });

  test("the turn in progress (tool rounds after the last prompt) carries its thinking too", () => {
    const sent = assistants(buildOpenAIChatRequest(request(true, CONVERSATION.slice(0, 3))));
    expect(sent.map((m) => m.reasoning_content)).toEqual(["a.txt first"]);
  });

  test("without sendThinking no message carries reasoning_content (most servers refuse or ignore it)", () => {
    for (const setting of [undefined, false]) {
      const body = JSON.stringify(buildOpenAIChatRequest(request(setting)).body);
      expect(body).not.toContain("reasoning_content");
      expect(body).not.toContain("a.txt first");
    }
  });

  test("the thinking of several blocks is joined as it was streamed", () => {
    const messages: Message[] = [
      user("q"),
      {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "part one, " },
          { type: "thinking", thinking: "part two" },
          { type: "tool_call", toolCallId: "c1", toolCallName: "word-count", toolCallArguments: {} },
        ],
      },
      results("c1"),
    ];
    expect(assistants(buildOpenAIChatRequest(request(true, messages)))[0]?.reasoning_content).toBe(
      "part one, part two",
    );
  });
});
