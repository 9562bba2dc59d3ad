/**
 * The corpus of streams recorded from real providers (test/corpus, origins
 * in test/corpus/INDEX.md) replayed through SSE decoding and each
 * protocol's mapper: whole, one byte at a time, and (for the smaller ones)
 * cut in two at every byte. Each recording's answer is checked: text,
 * thinking, tool calls, stop reason, usage, model or error; for some, what
 * the next request sends back is checked too.
 */
import { describe, expect, test } from "bun:test";
import { buildAnthropicRequest } from "../../src/providers/anthropic-request.ts";
import { createAnthropicStreamMapper } from "../../src/providers/anthropic-stream.ts";
import { mapSseStream } from "../../src/providers/map-sse-stream.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import { createOpenAIChatStreamMapper } from "../../src/providers/openai-chat-stream.ts";
import { buildOpenAIResponsesRequest } from "../../src/providers/openai-responses-request.ts";
import { createOpenAIResponsesStreamMapper } from "../../src/providers/openai-responses-stream.ts";
import type {
  Message,
  ModelRequest,
  ProtocolName,
  StreamEvent,
  StreamMapper,
  ThinkingBlock,
} from "../../src/providers/types.ts";
import { EXPECTED } from "../support/corpus-expectations.ts";
import { listRecordings, recording, type CorpusProtocol, type Recording } from "../support/recorded-corpus.ts";

const MAPPERS: Record<CorpusProtocol, () => StreamMapper> = {
  openai_chat_completions: createOpenAIChatStreamMapper,
  openai_responses: createOpenAIResponsesStreamMapper,
  anthropic: createAnthropicStreamMapper,
};

async function replay(rec: Recording, chunks: Uint8Array[]): Promise<StreamEvent[]> {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  const events: StreamEvent[] = [];
  for await (const event of mapSseStream(source(), MAPPERS[rec.protocol]())) events.push(event);
  return events;
}

const encoder = new TextEncoder();

function summary(events: StreamEvent[]): { text: string; thinking: string; terminal: StreamEvent | undefined } {
  let text = "";
  let thinking = "";
  for (const event of events) {
    if (event.type === "text_delta") text += event.text;
    if (event.type === "thinking_delta") thinking += event.thinking;
  }
  return { text, thinking, terminal: events[events.length - 1] };
}

function check(key: string, events: StreamEvent[]): void {
  const expected = EXPECTED[key];
  if (!expected) throw new Error(`no expectation for corpus recording ${key}`);
  const { text, thinking, terminal } = summary(events);
  expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
  if (expected.error) {
    expect(terminal?.type).toBe("error");
    if (terminal?.type !== "error") return;
    const { messageIncludes, ...rest } = expected.error;
    expect(terminal.failure).toMatchObject(rest);
    if (messageIncludes) expect(terminal.failure.message).toContain(messageIncludes);
    return;
  }
  expect(terminal?.type).toBe("done");
  if (terminal?.type !== "done") return;
  const { response } = terminal;
  const blocks = response.message.blocks;
  const storedText = blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const storedThinking = blocks.flatMap((b) => (b.type === "thinking" ? [b.thinking] : [])).join("");
  expect(storedText).toBe(text);
  expect(storedThinking).toBe(thinking);
  if (expected.text !== undefined) expect(text).toBe(expected.text);
  if (expected.thinking !== undefined) expect(thinking).toBe(expected.thinking);
  const calls = blocks.flatMap((b) =>
    b.type === "tool_call" ? [{ id: b.toolCallId, name: b.toolCallName, arguments: b.toolCallArguments }] : [],
  );
  expect(events.filter((e) => e.type === "tool_call").map((e) => (e.type === "tool_call" ? e.name : ""))).toEqual(
    calls.map((c) => c.name),
  );
  if (expected.calls !== undefined) {
    expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(
      expected.calls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    );
    expected.calls.forEach((call, n) => {
      if (call.id !== undefined) expect(calls[n]?.id).toBe(call.id);
    });
  }
  for (const call of calls) expect(call.name).not.toBe("");
  if (expected.stop !== undefined) expect(response.stopReason).toBe(expected.stop);
  if (expected.usage !== undefined) expect(response.usage).toEqual(expected.usage);
  if (expected.model !== undefined) expect(response.responseModel).toBe(expected.model);
}

const recordings = listRecordings();

describe("the recorded corpus", () => {
  test("holds at least 25 recordings, every one with an expectation and an origin in INDEX.md", async () => {
    expect(recordings.length).toBeGreaterThanOrEqual(25);
    const index = await Bun.file(`${import.meta.dir}/../corpus/INDEX.md`).text();
    for (const rec of recordings) {
      expect(Object.keys(EXPECTED)).toContain(`${rec.protocol}/${rec.file}`);
      expect(index).toContain(`${rec.protocol}/${rec.file.split("#")[0]}`);
    }
    for (const protocol of ["anthropic", "openai_chat_completions", "openai_responses"]) {
      expect(recordings.filter((r) => r.protocol === protocol).length).toBeGreaterThanOrEqual(5);
    }
  });

  for (const rec of recordings) {
    const key = `${rec.protocol}/${rec.file}`;
    test(`${key}: whole, and one byte at a time`, async () => {
      const bytes = encoder.encode(rec.body);
      const whole = await replay(rec, [bytes]);
      check(key, whole);
      const single = await replay(
        rec,
        Array.from(bytes, (byte) => Uint8Array.of(byte)),
      );
      expect(single).toEqual(whole);
    });
    if (rec.body.length <= 3000) {
      test(`${key}: cut in two at every byte`, async () => {
        const bytes = encoder.encode(rec.body);
        const whole = await replay(rec, [bytes]);
        for (let cut = 1; cut < bytes.length; cut++) {
          expect(await replay(rec, [bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
        }
      });
    }
  }
});

// --- what goes back on the next request --------------------------------------

async function answerOf(protocol: CorpusProtocol, file: string): Promise<Message> {
  const rec = recording(protocol, file);
  const events = await replay(rec, [encoder.encode(rec.body)]);
  const done = events.find((e) => e.type === "done");
  if (done?.type !== "done") throw new Error(`${file} did not complete`);
  return done.response.message;
}

function nextRequest(protocol: ProtocolName, answer: Message, wireId = "model-x"): ModelRequest {
  const calls = answer.blocks.flatMap((b) => (b.type === "tool_call" ? [b] : []));
  const results: Message = {
    role: "user",
    blocks:
      calls.length > 0
        ? calls.map((c) => ({
            type: "tool_result" as const,
            toolResultCallId: c.toolCallId,
            toolResult: [{ type: "text" as const, text: "42" }],
          }))
        : [{ type: "text", text: "go on" }],
  };
  return {
    model: {
      ref: "p/m",
      provider: "p",
      alias: "m",
      wireId,
      protocol,
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "",
      headers: {},
    },
    system: "",
    messages: [{ role: "user", blocks: [{ type: "text", text: "question" }] }, answer, results],
    tools: [],
    sessionId: "session-1",
  };
}

describe("what the next request sends back", () => {
  test("Chat Completions with sendThinking (DeepSeek): the recorded reasoning goes back as reasoning_content beside the call", async () => {
    const answer = await answerOf("openai_chat_completions", "deepseek-tool-call.chunks.txt");
    const request = nextRequest("openai_chat_completions", answer, "deepseek-v4-flash");
    request.model.sendThinking = true;
    const body = buildOpenAIChatRequest(request).body as { messages: Array<Record<string, unknown>> };
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(body.messages[1]).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "The user asks about the weather in San Francisco. I should use the weather tool.",
      tool_calls: [
        {
          id: "call_00_IhCAliIHtM9gKpgfqbBV9873",
          type: "function",
          function: { name: "weather", arguments: '{"location":"San Francisco"}' },
        },
      ],
    });
    // Without the setting the same answer goes back without its reasoning.
    request.model.sendThinking = false;
    expect(JSON.stringify(buildOpenAIChatRequest(request).body)).not.toContain("reasoning_content");
  });

  test("Chat Completions with sendThinking (Kimi): an answer without calls goes back without its reasoning", async () => {
    const answer = await answerOf("openai_chat_completions", "kimi-usage-live.chunks.txt");
    const request = nextRequest("openai_chat_completions", answer, "kimi-k2-thinking");
    request.model.sendThinking = true;
    const body = buildOpenAIChatRequest(request).body as { messages: Array<Record<string, unknown>> };
    expect(body.messages[1]).toEqual({ role: "assistant", content: "OK" });
  });

  test("Anthropic: both redacted_thinking blocks go back with their data, before the text", async () => {
    const answer = await answerOf("anthropic", "thinking-part-redacted-stream.cassette.yaml");
    const redacted = answer.blocks.filter(
      (b): b is ThinkingBlock => b.type === "thinking" && b.redactedData !== undefined,
    );
    expect(redacted.map((b) => b.redactedData?.slice(0, 8))).toEqual(["EqkECkYI", "EtgBCkYI"]);
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as {
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    };
    const sent = body.messages[1]?.content ?? [];
    expect(sent.map((block) => block.type)).toEqual(["redacted_thinking", "redacted_thinking", "text"]);
    expect(sent[0]?.data).toBe(redacted[0]?.redactedData);
    expect(sent[1]?.data).toBe(redacted[1]?.redactedData);
  });

  test("Anthropic: a signed thinking block goes back with its signature", async () => {
    const answer = await answerOf("anthropic", "clear-thinking.1.chunks.txt");
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as {
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    const thinking = body.messages[1]?.content[0];
    expect(thinking?.type).toBe("thinking");
    expect(String(thinking?.signature)).toStartWith("EvQBCkYICxgCKkAxhD4N");
    expect(String(thinking?.signature)).toEndWith("Ca17BgB");
  });

  test("Anthropic: server-run MCP blocks are not sent back as tool_use; the text is", async () => {
    const answer = await answerOf("anthropic", "mcp.1.chunks.txt");
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as {
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    expect(body.messages[1]?.content.map((b) => b.type)).toEqual(["text"]);
  });

  test("Responses: the reasoning item goes back with the encrypted content of its .done event, before its call", async () => {
    const answer = await answerOf("openai_responses", "reasoning-encrypted-content.1.chunks.txt");
    const body = buildOpenAIResponsesRequest(nextRequest("openai_responses", answer, "gpt-5.1-codex-max")).body as {
      input: Array<Record<string, unknown>>;
      include?: string[];
    };
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    const types = body.input.map((item) => item.type ?? item.role);
    expect(types).toEqual(["user", "reasoning", "function_call", "function_call_output"]);
    const reasoning = body.input[1] ?? {};
    expect(reasoning.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
    expect(String(reasoning.encrypted_content)).toStartWith("gAAAAABpPDIVOKrsHNZ0");
    expect(String(reasoning.encrypted_content)).toEndWith("0wz4uQ==");
    expect(reasoning.summary).toEqual([
      { type: "summary_text", text: expect.stringContaining("Calculating step-by-step") },
    ]);
    expect(body.input[2]).toMatchObject({
      call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
      name: "calculator",
      arguments: '{"a":12,"b":7,"op":"add"}',
    });
  });

  test("Chat Completions: a call whose fragments repeated an empty id goes back as one call with its whole arguments", async () => {
    const answer = await answerOf("openai_chat_completions", "alibaba-tool-call.chunks.txt");
    const body = buildOpenAIChatRequest(nextRequest("openai_chat_completions", answer)).body as {
      messages: Array<Record<string, unknown>>;
    };
    const assistant = body.messages.find((m) => m.role === "assistant") ?? {};
    expect(assistant.tool_calls).toEqual([
      {
        id: "call_eee11723464a4b9eb8cee71d",
        type: "function",
        function: { name: "weather", arguments: '{"location":"San Francisco"}' },
      },
    ]);
    expect(body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual([
      "call_eee11723464a4b9eb8cee71d",
    ]);
  });
});
