/**
 * Recorded wire streams (test/fixtures/<protocol>/*.sse) replayed through
 * SSE decoding and each protocol's mapper: first whole, checked against the
 * expected answer, then cut in two at every byte boundary and one byte at a
 * time, which must not change a single event.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAnthropicStreamMapper } from "../../src/providers/anthropic-stream.ts";
import { mapSseStream } from "../../src/providers/map-sse-stream.ts";
import { createOpenAIChatStreamMapper } from "../../src/providers/openai-chat-stream.ts";
import { createOpenAIResponsesStreamMapper } from "../../src/providers/openai-responses-stream.ts";
import type { AssistantResponse, ProviderFailure, StreamEvent, StreamMapper } from "../../src/providers/types.ts";

const FIXTURES = join(import.meta.dir, "../fixtures");

const MAPPERS: Record<string, () => StreamMapper> = {
  openai_chat_completions: createOpenAIChatStreamMapper,
  openai_responses: createOpenAIResponsesStreamMapper,
  anthropic: createAnthropicStreamMapper,
};

async function replay(protocol: string, chunks: Uint8Array[]): Promise<StreamEvent[]> {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  const events: StreamEvent[] = [];
  for await (const event of mapSseStream(source(), MAPPERS[protocol]!())) events.push(event);
  return events;
}

interface Case {
  protocol: string;
  file: string;
  text?: string;
  thinking?: string;
  done?: AssistantResponse;
  error?: Partial<ProviderFailure>;
}

const CASES: Case[] = [
  {
    protocol: "openai_chat_completions",
    file: "text-with-usage.sse",
    text: "Héllo, wörld 🌍 — 日本語.",
    done: {
      message: { role: "assistant", blocks: [{ type: "text", text: "Héllo, wörld 🌍 — 日本語." }] },
      stopReason: "end_turn",
      usage: { inputTokens: 1234, outputTokens: 9, cacheReadTokens: 1024 },
      responseModel: "gpt-4o-mini-2024-07-18",
    },
  },
  {
    protocol: "openai_chat_completions",
    file: "parallel-tool-calls.sse",
    done: {
      message: {
        role: "assistant",
        blocks: [
          {
            type: "tool_call",
            toolCallId: "call_wc01",
            toolCallName: "word-count",
            toolCallArguments: { path: "notes.txt" },
          },
          {
            type: "tool_call",
            toolCallId: "call_sh02",
            toolCallName: "shell",
            toolCallArguments: { command: 'ls -la | grep "ñ"' },
          },
        ],
      },
      stopReason: "tool_use",
      usage: { inputTokens: 310, outputTokens: 41 },
      responseModel: "gpt-4o-2024-08-06",
    },
  },
  {
    protocol: "openai_chat_completions",
    file: "reasoning-content.sse",
    text: "4",
    thinking: "The user wants a sum: 2+2.",
    done: {
      message: {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "The user wants a sum: 2+2." },
          { type: "text", text: "4" },
        ],
      },
      stopReason: "end_turn",
      usage: { inputTokens: 14, outputTokens: 22, reasoningTokens: 18 },
      responseModel: "deepseek-reasoner",
    },
  },
  {
    protocol: "openai_chat_completions",
    file: "local-crlf-no-done.sse",
    text: "Checking.",
    thinking: "Need the file size first.",
    done: {
      message: {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "Need the file size first." },
          { type: "text", text: "Checking." },
          { type: "tool_call", toolCallId: "call_x9", toolCallName: "shell", toolCallArguments: '{"command": "du -sh' },
        ],
      },
      stopReason: "tool_use",
      responseModel: "qwen3:8b",
    },
  },
  {
    protocol: "openai_chat_completions",
    file: "cut-mid-stream.sse",
    text: "Héllo, wörld ",
    error: { kind: "truncated_stream", retryable: true },
  },
  {
    protocol: "openai_responses",
    file: "text.sse",
    text: "Héllo 🌍 there.",
    done: {
      message: { role: "assistant", blocks: [{ type: "text", text: "Héllo 🌍 there." }] },
      stopReason: "end_turn",
      usage: { inputTokens: 37, outputTokens: 11 },
      responseModel: "gpt-4.1-2025-04-14",
    },
  },
  {
    protocol: "openai_responses",
    file: "reasoning-function-call.sse",
    thinking: "**Plan**\n\nCount words.\n\nThen answer.",
    done: {
      message: {
        role: "assistant",
        blocks: [
          { type: "thinking", thinking: "**Plan**\n\nCount words.\n\nThen answer." },
          {
            type: "tool_call",
            toolCallId: "call_KpFq2",
            toolCallName: "word-count",
            toolCallArguments: { path: "notes.txt" },
          },
        ],
      },
      stopReason: "tool_use",
      usage: { inputTokens: 512, outputTokens: 130, cacheReadTokens: 256, reasoningTokens: 96 },
      responseModel: "o4-mini-2025-04-16",
    },
  },
  {
    protocol: "openai_responses",
    file: "incomplete-max-tokens.sse",
    text: "Once upon a time",
    done: {
      message: { role: "assistant", blocks: [{ type: "text", text: "Once upon a time" }] },
      stopReason: "max_tokens",
      usage: { inputTokens: 20, outputTokens: 16 },
      responseModel: "gpt-4.1-2025-04-14",
    },
  },
  {
    protocol: "openai_responses",
    file: "failed-server-error.sse",
    text: "Partial",
    error: {
      kind: "server",
      retryable: true,
      message:
        "provider error (server_error): The server had an error while processing your request. Sorry about that!",
    },
  },
  {
    protocol: "anthropic",
    file: "text-cache-usage.sse",
    text: "Héllo 🌍 — done.",
    done: {
      message: { role: "assistant", blocks: [{ type: "text", text: "Héllo 🌍 — done." }] },
      stopReason: "end_turn",
      usage: { inputTokens: 12 + 2048 + 4096, outputTokens: 15, cacheReadTokens: 4096, cacheWriteTokens: 2048 },
      responseModel: "claude-sonnet-4-5-20250929",
    },
  },
  {
    protocol: "anthropic",
    file: "thinking-tool-use.sse",
    text: "Let me check.",
    thinking: "I need the weather for Paris.",
    done: {
      message: {
        role: "assistant",
        blocks: [
          {
            type: "thinking",
            thinking: "I need the weather for Paris.",
            signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
          },
          { type: "text", text: "Let me check." },
          {
            type: "tool_call",
            toolCallId: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            toolCallName: "get_weather",
            toolCallArguments: { location: "Paris, Île-de-France", unit: "c" },
          },
        ],
      },
      stopReason: "tool_use",
      usage: { inputTokens: 472, outputTokens: 89 },
      responseModel: "claude-sonnet-4-5-20250929",
    },
  },
  {
    protocol: "anthropic",
    file: "overloaded-mid-stream.sse",
    text: "Partial ans",
    error: { kind: "overloaded", retryable: true, message: "provider error (overloaded_error): Overloaded" },
  },
  {
    protocol: "anthropic",
    file: "cut-before-stop.sse",
    text: "Never",
    error: { kind: "truncated_stream", retryable: true },
  },
];

describe("recorded provider streams", () => {
  for (const c of CASES) {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, c.protocol, c.file)));

    test(`${c.protocol}/${c.file} maps to the expected answer`, async () => {
      const events = await replay(c.protocol, [bytes]);
      const last = events.at(-1);
      expect(events.filter((event) => event.type === "done" || event.type === "error")).toHaveLength(1);
      const text = events.flatMap((event) => (event.type === "text_delta" ? [event.text] : [])).join("");
      const thinking = events.flatMap((event) => (event.type === "thinking_delta" ? [event.thinking] : [])).join("");
      expect(text).toBe(c.text ?? "");
      expect(thinking).toBe(c.thinking ?? "");
      if (c.done) {
        expect(last).toEqual({ type: "done", response: c.done });
        const calls = events.filter((event) => event.type === "tool_call");
        const blocks = c.done.message.blocks.filter((block) => block.type === "tool_call");
        expect(calls).toEqual(
          blocks.map((block) => ({
            type: "tool_call",
            id: block.toolCallId,
            name: block.toolCallName,
            arguments: block.toolCallArguments,
          })),
        );
      } else {
        expect(last?.type).toBe("error");
        if (last?.type === "error") expect(last.failure).toMatchObject(c.error ?? {});
      }
    });

    test(`${c.protocol}/${c.file} gives the same events however the bytes are cut`, async () => {
      const whole = await replay(c.protocol, [bytes]);
      const mismatches: number[] = [];
      for (let at = 1; at < bytes.length; at++) {
        const split = await replay(c.protocol, [bytes.subarray(0, at), bytes.subarray(at)]);
        if (!Bun.deepEquals(split, whole)) mismatches.push(at);
      }
      expect(mismatches).toEqual([]);
      const single = await replay(
        c.protocol,
        Array.from(bytes, (byte) => Uint8Array.of(byte)),
      );
      expect(single).toEqual(whole);
    });
  }
});
