/**
 * OpenAI prompt caching: `prompt_cache_key` is the session id on OpenAI's
 * own endpoint, and the request prefix stays byte for byte the same from one
 * turn to the next, which is what a prefix cache needs.
 */
import { describe, expect, test } from "bun:test";
import { buildAnthropicRequest } from "../../src/providers/anthropic-request.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import { buildOpenAIResponsesRequest } from "../../src/providers/openai-responses-request.ts";
import type { ModelRequest, ProtocolName } from "../../src/providers/types.ts";
import { sampleRequest } from "./sample-request.ts";

const BUILDERS = {
  openai_chat_completions: buildOpenAIChatRequest,
  openai_responses: buildOpenAIResponsesRequest,
  anthropic: buildAnthropicRequest,
};

function nextTurn(request: ModelRequest): ModelRequest {
  return {
    ...request,
    messages: [
      ...request.messages,
      {
        role: "assistant",
        blocks: [
          { type: "tool_call", toolCallId: "c9", toolCallName: "word-count", toolCallArguments: { path: "b.txt" } },
        ],
      },
      {
        role: "user",
        blocks: [{ type: "tool_result", toolResultCallId: "c9", toolResult: [{ type: "text", text: "7 words" }] }],
      },
    ],
  };
}

describe("prompt_cache_key", () => {
  for (const protocol of ["openai_chat_completions", "openai_responses"] as const) {
    test(`${protocol}: the session id, on api.openai.com only, and not with cache: false`, () => {
      const build = BUILDERS[protocol];
      expect(build(sampleRequest({ protocol, baseUrl: "https://api.openai.com/v1" })).body.prompt_cache_key).toBe(
        "sess-42",
      );
      expect("prompt_cache_key" in build(sampleRequest({ protocol, baseUrl: "http://127.0.0.1:11434/v1" })).body).toBe(
        false,
      );
      expect(
        "prompt_cache_key" in
          build(sampleRequest({ protocol, baseUrl: "https://api.openai.com/v1", cache: false })).body,
      ).toBe(false);
    });
  }
});

describe("a byte-stable prefix from one turn to the next", () => {
  const cases: Array<[ProtocolName, string]> = [
    ["openai_chat_completions", "messages"],
    ["openai_responses", "input"],
  ];
  for (const [protocol, field] of cases) {
    test(`${protocol}: everything before the new items is sent again byte for byte`, () => {
      const build = BUILDERS[protocol as keyof typeof BUILDERS];
      const first = sampleRequest({ protocol, baseUrl: "https://api.openai.com/v1" });
      const a = build(first).body;
      const b = build(nextTurn(first)).body;
      // Same fields in the same order, same tools, same instructions.
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const key of Object.keys(a)) if (key !== field) expect(JSON.stringify(b[key])).toBe(JSON.stringify(a[key]));
      const before = JSON.stringify(a[field]).slice(0, -1);
      expect(JSON.stringify(b[field]).startsWith(before)).toBe(true);
    });
  }

  test("anthropic: only cache_control markers move; the content before the new messages is unchanged", () => {
    const first = sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com" });
    const strip = (value: unknown) =>
      JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v));
    const a = buildAnthropicRequest(first).body as { messages: unknown[]; tools: unknown; system: unknown };
    const b = buildAnthropicRequest(nextTurn(first)).body as { messages: unknown[]; tools: unknown; system: unknown };
    expect(strip(b.tools)).toBe(strip(a.tools));
    expect(strip(b.system)).toBe(strip(a.system));
    expect(strip(b.messages).startsWith(strip(a.messages).slice(0, -1))).toBe(true);
  });
});
