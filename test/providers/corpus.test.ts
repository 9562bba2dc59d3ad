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
import type { AssistantResponse, Message, ModelRequest, ProtocolName, ProviderFailure, StreamEvent, StreamMapper, ThinkingBlock } from "../../src/providers/types.ts";
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

/** What a recording must produce. */
interface Expected {
  text?: string;
  thinking?: string;
  calls?: Array<{ id?: string; name: string; arguments: unknown }>;
  stop?: AssistantResponse["stopReason"];
  usage?: AssistantResponse["usage"];
  model?: string;
  error?: Partial<ProviderFailure> & { messageIncludes?: string };
}

const EXPECTED: Record<string, Expected> = {
  // --- Anthropic Messages ---------------------------------------------------
  "anthropic/text.chunks.txt": {
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    stop: "end_turn",
    usage: { inputTokens: 12, outputTokens: 30 },
    model: "claude-sonnet-4-5-20250929",
  },
  "anthropic/tool-no-args.chunks.txt": {
    text: "I'll update the issue list for you.",
    calls: [{ id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: {} }],
    stop: "tool_use",
    usage: { inputTokens: 565, outputTokens: 48 },
  },
  // mcp_tool_use / mcp_tool_result run on Anthropic's side: text only, no call for us.
  "anthropic/mcp.1.chunks.txt": {
    text: "The echo tool responded back with: **hello world**\n\nIt simply echoed back the exact message that was sent to it.",
    calls: [],
    stop: "end_turn",
    usage: { inputTokens: 1250, outputTokens: 83 },
  },
  "anthropic/message-delta-input-tokens.chunks.txt": { text: "pong", stop: "end_turn", usage: { inputTokens: 61, outputTokens: 2 }, model: "claude-opus-4-5-20251101" },
  // A server_tool_use block alone: its input deltas are not a call of ours.
  "anthropic/code-execution-empty-first-delta.chunks.txt": { text: "", calls: [], stop: "other", usage: { inputTokens: 10, outputTokens: 12 } },
  "anthropic/json-tool.1.chunks.txt": {
    calls: [{ id: "toolu_01KFbKqPYSuAKujiL6mTfzYA", name: "json", arguments: { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] } }],
    stop: "tool_use",
    usage: { inputTokens: 849, outputTokens: 47 },
    model: "claude-haiku-4-5-20251001",
  },
  "anthropic/clear-thinking.1.chunks.txt": {
    thinking: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
    text: "925 ÷ 5 = 185",
    stop: "end_turn",
    usage: { inputTokens: 69, outputTokens: 53 },
  },
  "anthropic/issue-10781.1.chunks.txt": {
    text: "Let me check.",
    calls: [{ id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY", name: "get_weather", arguments: { city: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 624, outputTokens: 59 },
  },
  "anthropic/issue-11719-quoted-tool-input.chunks.txt": {
    calls: [
      {
        name: "website_update",
        arguments: {
          website_path: "/home/user/pace-landing",
          tasks: [
            {
              description:
                'Today you post every run to Strava, but Strava does not answer the question: "What should I do next after this run?". It is a great log, but it is not adaptive.',
              type: "feature",
              passes: false,
            },
          ],
        },
      },
    ],
    stop: "tool_use",
    usage: { inputTokens: 912, outputTokens: 118 },
  },
  "anthropic/thinking-part-redacted-stream.cassette.yaml": {
    thinking: "",
    text:
      "I notice that you've sent what appears to be some kind of test string or command. I don't have any special \"magic string\" triggers or backdoor commands that would expose internal systems or change my behavior.\n\nI'm Claude, an AI assistant created by Anthropic to be helpful, harmless, and honest. How can I assist you today with a legitimate task or question?",
    stop: "end_turn",
    usage: { inputTokens: 92, outputTokens: 189 },
    model: "claude-sonnet-4-5-20250929",
  },
  // --- Chat Completions -----------------------------------------------------
  // Qwen / DashScope repeats "id": "" on every fragment after the first.
  "openai_chat_completions/alibaba-tool-call.chunks.txt": {
    calls: [{ id: "call_eee11723464a4b9eb8cee71d", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 295, outputTokens: 22 },
    model: "qwen3-max",
  },
  // Mistral: a whole call without `index`.
  "openai_chat_completions/mistral-tool-call.chunks.txt": {
    calls: [{ id: "gSIMJiOkT", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 124, outputTokens: 22 },
    model: "mistral-small-latest",
  },
  "openai_chat_completions/mistral-incremental-tool-call.chunks.txt": {
    calls: [{ id: "chatcmpl-tool-9f149c74c42f265b", name: "webSearchTool", arguments: { query: "current Berlin weather" } }],
    stop: "tool_use",
    usage: { inputTokens: 171, outputTokens: 14, cacheReadTokens: 128 },
  },
  // Magistral: `content` as a list of thinking and text parts.
  "openai_chat_completions/mistral-reasoning.chunks.txt": {
    thinking: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
    text: "2 + 2 = 4",
    stop: "end_turn",
    usage: { inputTokens: 10, outputTokens: 46 },
    model: "magistral-medium-2507",
  },
  "openai_chat_completions/groq-tool-call.chunks.txt": {
    calls: [{ id: "tk85n1k4m", name: "weather", arguments: {} }],
    stop: "tool_use",
    usage: { inputTokens: 210, outputTokens: 15 },
    model: "llama-3.3-70b-versatile",
  },
  "openai_chat_completions/deepseek-tool-call.chunks.txt": {
    thinking: "The user asks about the weather in San Francisco. I should use the weather tool.",
    calls: [{ id: "call_00_IhCAliIHtM9gKpgfqbBV9873", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 374, outputTokens: 61, cacheReadTokens: 256, reasoningTokens: 17 },
    model: "deepseek-v4-flash",
  },
  "openai_chat_completions/xai-tool-call.chunks.txt": {
    thinking: "First, the user is",
    calls: [{ id: "call_55117580", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 291, outputTokens: 26, cacheReadTokens: 290, reasoningTokens: 196 },
    model: "grok-3-mini",
  },
  // Azure: a first chunk with no choices and an empty model (content filter results).
  "openai_chat_completions/azure-model-router.1.chunks.txt": {
    text: "Capital of Denmark.",
    stop: "end_turn",
    usage: { inputTokens: 15, outputTokens: 78, reasoningTokens: 64 },
    model: "gpt-5-nano-2025-08-07",
  },
  "openai_chat_completions/deepseek-live-usage-length.chunks.txt": {
    text: "sanitized",
    stop: "max_tokens",
    usage: { inputTokens: 88, outputTokens: 4, reasoningTokens: 4 },
  },
  // Ollama: each whole call in one chunk, parallel calls at index 0 and 1, no usage.
  "openai_chat_completions/ollama-parallel-tool-calls.chunks.txt": {
    calls: [
      { id: "call_wteop8bt", name: "run_command", arguments: { command: "ls" } },
      { id: "call_rk2xye1l", name: "run_command", arguments: { command: "ls -l" } },
    ],
    stop: "tool_use",
    model: "qwen2.5-coder:7b-instruct-q8_0",
  },
  // --- Responses ------------------------------------------------------------
  "openai_responses/issue-19493-gpt-5.1-tool-call.chunks.txt": {
    calls: [{ id: "call_2FQdm3Br7Qb35YUBSkDR7kue", name: "get_weather", arguments: { city: "Beijing" } }],
    stop: "tool_use",
    usage: { inputTokens: 45, outputTokens: 25 },
    model: "gpt-5.1-2025-11-13",
  },
  "openai_responses/openai-error.1.chunks.txt": { error: { kind: "other", retryable: false, messageIncludes: "You exceeded your current quota" } },
  "openai_responses/openai-error-null-code.1.chunks.txt": { error: { kind: "server", retryable: true, messageIncludes: "Sorry, something went wrong." } },
  "openai_responses/compatible-basic-text.1.chunks.txt": {
    text: "Code in silence,\nBugs emerge at runtime—\nConsole dot log.",
    stop: "end_turn",
    usage: { inputTokens: 28, outputTokens: 21 },
    model: "grok-2-1212",
  },
  "openai_responses/reasoning-encrypted-content.1.chunks.txt": {
    thinking: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    calls: [{ id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", arguments: { a: 12, b: 7, op: "add" } }],
    stop: "tool_use",
    usage: { inputTokens: 134, outputTokens: 28 },
    model: "gpt-5.1-codex-max",
  },
};

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
  const calls = blocks.flatMap((b) => (b.type === "tool_call" ? [{ id: b.toolCallId, name: b.toolCallName, arguments: b.toolCallArguments }] : []));
  expect(events.filter((e) => e.type === "tool_call").map((e) => (e.type === "tool_call" ? e.name : ""))).toEqual(calls.map((c) => c.name));
  if (expected.calls !== undefined) {
    expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(expected.calls.map(({ name, arguments: args }) => ({ name, arguments: args })));
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
      const single = await replay(rec, Array.from(bytes, (byte) => Uint8Array.of(byte)));
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
    blocks: calls.length > 0 ? calls.map((c) => ({ type: "tool_result" as const, toolResultCallId: c.toolCallId, toolResult: [{ type: "text" as const, text: "42" }] })) : [{ type: "text", text: "go on" }],
  };
  return {
    model: { ref: "p/m", provider: "p", alias: "m", wireId, protocol, baseUrl: "http://127.0.0.1:9/v1", apiKey: "" , headers: {} },
    system: "",
    messages: [{ role: "user", blocks: [{ type: "text", text: "question" }] }, answer, results],
    tools: [],
    sessionId: "session-1",
  };
}

describe("what the next request sends back", () => {
  test("Anthropic: both redacted_thinking blocks go back with their data, before the text", async () => {
    const answer = await answerOf("anthropic", "thinking-part-redacted-stream.cassette.yaml");
    const redacted = answer.blocks.filter((b): b is ThinkingBlock => b.type === "thinking" && b.redactedData !== undefined);
    expect(redacted.map((b) => b.redactedData?.slice(0, 8))).toEqual(["EqkECkYI", "EtgBCkYI"]);
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const sent = body.messages[1]?.content ?? [];
    expect(sent.map((block) => block.type)).toEqual(["redacted_thinking", "redacted_thinking", "text"]);
    expect(sent[0]?.data).toBe(redacted[0]?.redactedData);
    expect(sent[1]?.data).toBe(redacted[1]?.redactedData);
  });

  test("Anthropic: a signed thinking block goes back with its signature", async () => {
    const answer = await answerOf("anthropic", "clear-thinking.1.chunks.txt");
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    const thinking = body.messages[1]?.content[0];
    expect(thinking?.type).toBe("thinking");
    expect(String(thinking?.signature)).toStartWith("EvQBCkYICxgCKkAxhD4N");
    expect(String(thinking?.signature)).toEndWith("Ca17BgB");
  });

  test("Anthropic: server-run MCP blocks are not sent back as tool_use; the text is", async () => {
    const answer = await answerOf("anthropic", "mcp.1.chunks.txt");
    const body = buildAnthropicRequest(nextRequest("anthropic", answer)).body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    expect(body.messages[1]?.content.map((b) => b.type)).toEqual(["text"]);
  });

  test("Responses: the reasoning item goes back with the encrypted content of its .done event, before its call", async () => {
    const answer = await answerOf("openai_responses", "reasoning-encrypted-content.1.chunks.txt");
    const body = buildOpenAIResponsesRequest(nextRequest("openai_responses", answer, "gpt-5.1-codex-max")).body as { input: Array<Record<string, unknown>>; include?: string[] };
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    const types = body.input.map((item) => item.type ?? item.role);
    expect(types).toEqual(["user", "reasoning", "function_call", "function_call_output"]);
    const reasoning = body.input[1] ?? {};
    expect(reasoning.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
    expect(String(reasoning.encrypted_content)).toStartWith("gAAAAABpPDIVOKrsHNZ0");
    expect(String(reasoning.encrypted_content)).toEndWith("0wz4uQ==");
    expect(reasoning.summary).toEqual([{ type: "summary_text", text: expect.stringContaining("Calculating step-by-step") }]);
    expect(body.input[2]).toMatchObject({ call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", arguments: '{"a":12,"b":7,"op":"add"}' });
  });

  test("Chat Completions: a call whose fragments repeated an empty id goes back as one call with its whole arguments", async () => {
    const answer = await answerOf("openai_chat_completions", "alibaba-tool-call.chunks.txt");
    const body = buildOpenAIChatRequest(nextRequest("openai_chat_completions", answer)).body as { messages: Array<Record<string, unknown>> };
    const assistant = body.messages.find((m) => m.role === "assistant") ?? {};
    expect(assistant.tool_calls).toEqual([
      { id: "call_eee11723464a4b9eb8cee71d", type: "function", function: { name: "weather", arguments: '{"location":"San Francisco"}' } },
    ]);
    expect(body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["call_eee11723464a4b9eb8cee71d"]);
  });
});
