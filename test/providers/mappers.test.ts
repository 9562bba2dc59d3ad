import { describe, expect, test } from "bun:test";
import { mapAnthropicStopReason } from "../../src/providers/map-anthropic-stop-reason.ts";
import { mapAnthropicUsage, mergeAnthropicUsage } from "../../src/providers/map-anthropic-usage.ts";
import { mapOpenAIChatStopReason } from "../../src/providers/map-openai-chat-stop-reason.ts";
import { mapOpenAIUsage } from "../../src/providers/map-openai-usage.ts";
import { mapOpenAIResponsesStopReason } from "../../src/providers/map-openai-responses-stop-reason.ts";
import { parseToolArguments } from "../../src/providers/parse-tool-arguments.ts";

describe("stop reasons", () => {
  test("Chat Completions: finish_reason, with tool calls deciding over a plain stop", () => {
    expect(
      ["stop", "length", "tool_calls", "content_filter", "weird", undefined].map((reason) =>
        mapOpenAIChatStopReason(reason, false),
      ),
    ).toEqual(["end_turn", "max_tokens", "tool_use", "refusal", "other", "other"]);
    expect(mapOpenAIChatStopReason("stop", true)).toBe("tool_use");
    // Cut at the output limit while a call was being written: cut, not a call to run (issue 30).
    expect(mapOpenAIChatStopReason("length", true)).toBe("max_tokens");
  });

  test("Responses: status and incomplete reason", () => {
    expect(mapOpenAIResponsesStopReason("completed", undefined, false)).toBe("end_turn");
    expect(mapOpenAIResponsesStopReason("completed", undefined, true)).toBe("tool_use");
    expect(mapOpenAIResponsesStopReason("incomplete", "max_output_tokens", true)).toBe("max_tokens");
    expect(mapOpenAIResponsesStopReason("incomplete", "content_filter", false)).toBe("refusal");
  });

  test("Anthropic: stop_reason", () => {
    expect(
      [
        "end_turn",
        "stop_sequence",
        "tool_use",
        "max_tokens",
        "model_context_window_exceeded",
        "refusal",
        "pause_turn",
      ].map(mapAnthropicStopReason),
    ).toEqual(["end_turn", "end_turn", "tool_use", "max_tokens", "max_tokens", "refusal", "other"]);
  });
});

describe("usage", () => {
  test("Chat Completions and Responses keep cached and reasoning counts as subsets", () => {
    expect(
      mapOpenAIUsage(
        {
          prompt_tokens: 100,
          completion_tokens: 20,
          prompt_tokens_details: { cached_tokens: 64 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
        "chat_completions",
      ),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 64,
      reasoningTokens: 5,
    });
    expect(mapOpenAIUsage(null, "chat_completions")).toBeUndefined();
    expect(
      mapOpenAIUsage({ input_tokens: 7, output_tokens: 3, input_tokens_details: { cached_tokens: 0 } }, "responses"),
    ).toEqual({ inputTokens: 7, outputTokens: 3 });
    expect(
      mapOpenAIUsage(
        {
          input_tokens: 9,
          output_tokens: 4,
          input_tokens_details: { cached_tokens: 8 },
          output_tokens_details: { reasoning_tokens: 2 },
        },
        "responses",
      ),
    ).toEqual({
      inputTokens: 9,
      outputTokens: 4,
      cacheReadTokens: 8,
      reasoningTokens: 2,
    });
    // Each protocol reads only its own spelling.
    expect(mapOpenAIUsage({ input_tokens: 7, output_tokens: 3 }, "chat_completions")).toEqual({
      inputTokens: 0,
      outputTokens: 0,
    });
    expect(
      mapOpenAIUsage({ prompt_tokens: 7, completion_tokens: 3, prompt_tokens_details: "odd" }, "chat_completions"),
    ).toEqual({ inputTokens: 7, outputTokens: 3 });
  });

  test("Anthropic adds cache reads and writes to the input and takes the last output count", () => {
    let counters = mergeAnthropicUsage(
      {},
      { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 1 },
    );
    counters = mergeAnthropicUsage(counters, { output_tokens: 42 });
    expect(mapAnthropicUsage(counters)).toEqual({
      inputTokens: 160,
      outputTokens: 42,
      cacheReadTokens: 100,
      cacheWriteTokens: 50,
    });
  });
});

describe("tool-call arguments", () => {
  test("decode JSON, treat empty text as no arguments, and keep invalid JSON as the raw string", () => {
    expect(parseToolArguments('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(parseToolArguments("  ")).toEqual({});
    expect(parseToolArguments('{"a":')).toBe('{"a":');
    expect(parseToolArguments("[1]")).toEqual([1]);
  });
});

describe("Chat Completions tool-call fragments", () => {
  test("a new id at an index already used starts a new call (servers that number every call 0)", async () => {
    const { createOpenAIChatStreamMapper } = await import("../../src/providers/openai-chat-stream.ts");
    const mapper = createOpenAIChatStreamMapper();
    const chunk = (toolCalls: unknown[], finish: string | null = null) => ({
      data: JSON.stringify({ choices: [{ delta: { tool_calls: toolCalls }, finish_reason: finish }] }),
    });
    mapper.push(chunk([{ index: 0, id: "a", function: { name: "one", arguments: '{"x":' } }]));
    mapper.push(chunk([{ index: 0, function: { arguments: "1}" } }]));
    mapper.push(chunk([{ index: 0, id: "b", function: { name: "two", arguments: "{}" } }]));
    const events = mapper.push({ data: "[DONE]" });
    expect(events.filter((event) => event.type === "tool_call")).toEqual([
      { type: "tool_call", id: "a", name: "one", arguments: { x: 1 } },
      { type: "tool_call", id: "b", name: "two", arguments: {} },
    ]);
  });

  const chunk = (toolCalls: unknown[], finish: string | null = null) => ({
    data: JSON.stringify({ choices: [{ delta: { tool_calls: toolCalls }, finish_reason: finish }] }),
  });
  const callsOf = async (...chunks: Array<{ data: string }>) => {
    const { createOpenAIChatStreamMapper } = await import("../../src/providers/openai-chat-stream.ts");
    const mapper = createOpenAIChatStreamMapper();
    for (const c of chunks) mapper.push(c);
    return mapper.push({ data: "[DONE]" }).filter((event) => event.type === "tool_call");
  };

  test("without index, a fragment's place in the list says which call it continues (Kimi sends two calls, then both arguments)", async () => {
    expect(
      await callsOf(
        chunk([
          { id: "weather_0", type: "function", function: { name: "weather", arguments: "" } },
          { id: "time_1", type: "function", function: { name: "time", arguments: "" } },
        ]),
        chunk([
          { function: { arguments: '{"location":"San Francisco"}' } },
          { function: { arguments: '{"zone":"UTC"}' } },
        ]),
      ),
    ).toEqual([
      { type: "tool_call", id: "weather_0", name: "weather", arguments: { location: "San Francisco" } },
      { type: "tool_call", id: "time_1", name: "time", arguments: { zone: "UTC" } },
    ]);
  });

  test("an empty id, or the same id or name again, continues the call; another name starts one", async () => {
    expect(
      await callsOf(
        chunk([{ index: 0, id: "c1", function: { name: "weather", arguments: "" } }]),
        chunk([{ index: 0, id: "", function: { arguments: '{"city":' } }]),
        chunk([{ index: 0, id: "c1", function: { name: "weather", arguments: '"Oslo"}' } }]),
        chunk([{ index: 0, function: { name: "time", arguments: "{}" } }]),
      ),
    ).toEqual([
      { type: "tool_call", id: "c1", name: "weather", arguments: { city: "Oslo" } },
      { type: "tool_call", id: "call_1", name: "time", arguments: {} },
    ]);
  });
});

describe("Responses reasoning items", () => {
  test("each item is its own thinking block with its encrypted content; a summary sent only with the finished item is kept", async () => {
    const { createOpenAIResponsesStreamMapper } = await import("../../src/providers/openai-responses-stream.ts");
    const mapper = createOpenAIResponsesStreamMapper();
    const push = (data: Record<string, unknown>) => mapper.push({ data: JSON.stringify(data) });
    push({ type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } });
    push({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 0, delta: "First part." });
    push({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 1, delta: "Second part." });
    push({
      type: "response.output_item.done",
      output_index: 0,
      item: {
        id: "rs_1",
        type: "reasoning",
        encrypted_content: "enc-1",
        summary: [
          { type: "summary_text", text: "First part." },
          { type: "summary_text", text: "Second part." },
        ],
      },
    });
    push({ type: "response.output_item.added", output_index: 1, item: { id: "rs_2", type: "reasoning", summary: [] } });
    push({
      type: "response.output_item.done",
      output_index: 1,
      item: {
        id: "rs_2",
        type: "reasoning",
        encrypted_content: "enc-2",
        summary: [{ type: "summary_text", text: "Only at the end." }],
      },
    });
    push({ type: "response.output_item.added", output_index: 2, item: { id: "rs_3", type: "reasoning", summary: [] } });
    push({
      type: "response.output_item.done",
      output_index: 2,
      item: { id: "rs_3", type: "reasoning", encrypted_content: "enc-3", summary: [] },
    });
    push({ type: "response.output_text.delta", item_id: "msg_1", delta: "Answer." });
    const done = push({
      type: "response.completed",
      response: { status: "completed", usage: { input_tokens: 10, output_tokens: 5 } },
    }).at(-1);
    if (done?.type !== "done") throw new Error("expected done");
    expect(done.response.message.blocks).toEqual([
      {
        type: "thinking",
        thinking: "First part.\n\nSecond part.",
        encryptedReasoning: { id: "rs_1", content: "enc-1" },
      },
      { type: "thinking", thinking: "Only at the end.", encryptedReasoning: { id: "rs_2", content: "enc-2" } },
      { type: "thinking", thinking: "", encryptedReasoning: { id: "rs_3", content: "enc-3" } },
      { type: "text", text: "Answer." },
    ]);
  });
});
