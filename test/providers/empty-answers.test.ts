/**
 * An assistant answer with no text and no call - only thinking (a session
 * continued with -s after an answer cut while thinking), or emptied by an
 * afterModelResponse hook (stored as one empty text) - keeps its turn on
 * every protocol: the request alternates user and assistant and says the
 * answer was empty, instead of gluing the next prompt onto the last.
 */
import { describe, expect, test } from "bun:test";
import { buildAnthropicRequest } from "../../src/providers/anthropic-request.ts";
import { EMPTY_ANSWER_TEXT } from "../../src/providers/empty-answer.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import { buildOpenAIResponsesRequest } from "../../src/providers/openai-responses-request.ts";
import type { Message, ModelRequest, ProtocolName } from "../../src/providers/types.ts";
import { sampleModel } from "./sample-request.ts";

const THINKING_ONLY: Message = {
  role: "assistant",
  blocks: [
    {
      type: "thinking",
      thinking: "still weighing it",
      signature: "sig-1",
      encryptedReasoning: { id: "rs_1", content: "enc-1" },
    },
  ],
};
const UNSIGNED_THINKING_ONLY: Message = {
  role: "assistant",
  blocks: [{ type: "thinking", thinking: "from another protocol" }],
};
const EMPTIED: Message = { role: "assistant", blocks: [{ type: "text", text: "" }] };
const WHITESPACE: Message = { role: "assistant", blocks: [{ type: "text", text: "  \n" }] };

function request(protocol: ProtocolName, answer: Message): ModelRequest {
  return {
    model: sampleModel({ protocol, wireId: "gpt-5", sendThinking: true }),
    system: "sys",
    messages: [
      { role: "user", blocks: [{ type: "text", text: "first prompt" }] },
      answer,
      { role: "user", blocks: [{ type: "text", text: "second prompt" }] },
    ],
    tools: [],
    sessionId: "s",
  };
}

const CASES: Array<[string, Message]> = [
  ["an answer that was only (signed) thinking", THINKING_ONLY],
  ["an answer that was only unsigned thinking", UNSIGNED_THINKING_ONLY],
  ["an answer a hook emptied", EMPTIED],
  ["an answer of whitespace", WHITESPACE],
];

describe("an empty answer keeps its turn", () => {
  for (const [name, answer] of CASES) {
    test(`Anthropic: ${name}`, () => {
      const messages = buildAnthropicRequest(request("anthropic", answer)).body.messages as Array<{
        role: string;
        content: Array<Record<string, unknown>>;
      }>;
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
      const content = messages[1]?.content ?? [];
      const expected =
        answer === THINKING_ONLY ? [{ type: "thinking", thinking: "still weighing it", signature: "sig-1" }] : [];
      expect(content).toEqual([...expected, { type: "text", text: EMPTY_ANSWER_TEXT }]);
      expect(messages[2]?.content.map((b) => b.text)).toEqual(["second prompt"]);
    });

    test(`Chat Completions: ${name}`, () => {
      const messages = buildOpenAIChatRequest(request("openai_chat_completions", answer)).body.messages as Array<
        Record<string, unknown>
      >;
      expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      // No tool call in the turn: no reasoning_content even with sendThinking.
      expect(messages[2]).toEqual({ role: "assistant", content: EMPTY_ANSWER_TEXT });
      expect(messages[3]).toEqual({ role: "user", content: "second prompt" });
    });

    test(`Responses: ${name}`, () => {
      const input = buildOpenAIResponsesRequest(request("openai_responses", answer)).body.input as Array<
        Record<string, unknown>
      >;
      // The reasoning item of an answer with nothing after it is not sent: the API refuses a reasoning item without its following item.
      expect(input).toEqual([
        { role: "user", content: [{ type: "input_text", text: "first prompt" }] },
        { role: "assistant", content: [{ type: "output_text", text: EMPTY_ANSWER_TEXT }] },
        { role: "user", content: [{ type: "input_text", text: "second prompt" }] },
      ]);
    });
  }

  test("an answer with text or a call is sent as before, without the note", () => {
    const answer: Message = {
      role: "assistant",
      blocks: [
        { type: "thinking", thinking: "t", signature: "s" },
        { type: "text", text: "Hi." },
      ],
    };
    for (const build of [buildAnthropicRequest, buildOpenAIChatRequest, buildOpenAIResponsesRequest]) {
      const protocol: ProtocolName =
        build === buildAnthropicRequest
          ? "anthropic"
          : build === buildOpenAIChatRequest
            ? "openai_chat_completions"
            : "openai_responses";
      expect(JSON.stringify(build(request(protocol, answer)).body)).not.toContain(EMPTY_ANSWER_TEXT);
    }
  });
});
