import { describe, expect, test } from "bun:test";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import { sampleRequest } from "./sample-request.ts";

describe("Chat Completions request", () => {
  test("posts to {base}/chat/completions with bearer auth, SSE accept and streaming usage", () => {
    const spec = buildOpenAIChatRequest(sampleRequest({ baseUrl: "http://127.0.0.1:11434/v1/" }));
    expect(spec.url).toBe("http://127.0.0.1:11434/v1/chat/completions");
    expect(spec.headers.authorization).toBe("Bearer sk-test");
    expect(spec.headers["content-type"]).toBe("application/json");
    expect(spec.headers.accept).toBe("text/event-stream");
    expect(spec.body.model).toBe("wire-model-1");
    expect(spec.body.stream).toBe(true);
    expect(spec.body.stream_options).toEqual({ include_usage: true });
  });

  test("sends no Authorization header when the key is empty (local servers)", () => {
    const spec = buildOpenAIChatRequest(sampleRequest({ apiKey: "" }));
    expect(Object.keys(spec.headers).map((name) => name.toLowerCase())).not.toContain("authorization");
  });

  test("maps the conversation: system first, tool calls with JSON or raw arguments, tool messages before the user's text", () => {
    const spec = buildOpenAIChatRequest(sampleRequest());
    expect(spec.body.messages).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: "count words in notes.txt" },
      {
        role: "assistant",
        content: "Counting.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "word-count", arguments: '{"path":"notes.txt"}' } },
          { id: "c2", type: "function", function: { name: "shell", arguments: '{"command": "wc' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "42 words" },
      { role: "tool", tool_call_id: "c2", content: "invalid JSON arguments" },
      { role: "user", content: "also say hi" },
      { role: "assistant", content: "notes.txt has 42 words. Hi!" },
      { role: "user", content: "thanks" },
    ]);
  });

  test("sends tool definitions as functions with the tool's parameters verbatim", () => {
    const spec = buildOpenAIChatRequest(sampleRequest());
    expect(spec.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "word-count",
          description: "Counts words in a file.",
          parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
      },
    ]);
  });

  test("has no tools field at all when the agent has no tools", () => {
    const spec = buildOpenAIChatRequest(sampleRequest({}, []));
    expect("tools" in spec.body).toBe(false);
    expect(JSON.stringify(spec.body)).not.toContain('"tools"');
  });

  test("maps max_tokens, temperature, top_p and thinking_level to reasoning_effort, and sends none of them when unset", () => {
    const set = buildOpenAIChatRequest(
      sampleRequest({ maxTokens: 2048, temperature: 0.2, topP: 0.9, thinkingLevel: "high", thinkingMaxTokens: 999 }),
    );
    expect(set.body).toMatchObject({ max_tokens: 2048, temperature: 0.2, top_p: 0.9, reasoning_effort: "high" });
    expect(JSON.stringify(set.body)).not.toContain("999");
    const unset = buildOpenAIChatRequest(sampleRequest());
    for (const key of ["max_tokens", "temperature", "top_p", "reasoning_effort"]) expect(key in unset.body).toBe(false);
  });

  test("sends static headers and the session header with the session id", () => {
    const spec = buildOpenAIChatRequest(
      sampleRequest({ headers: { "X-Title": "rienda" }, sessionHeader: "X-Session-Id" }),
    );
    expect(spec.headers["X-Title"]).toBe("rienda");
    expect(spec.headers["X-Session-Id"]).toBe("sess-42");
  });

  test("lets a static header replace the default auth header, whatever its case", () => {
    const spec = buildOpenAIChatRequest(sampleRequest({ headers: { Authorization: "Token abc" } }));
    const auth = Object.entries(spec.headers).filter(([name]) => name.toLowerCase() === "authorization");
    expect(auth).toEqual([["Authorization", "Token abc"]]);
  });

  test("omits an empty system prompt and sends content null for a tool-call-only assistant message", () => {
    const request = sampleRequest();
    request.system = "  ";
    request.messages = [
      { role: "user", blocks: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        blocks: [{ type: "tool_call", toolCallId: "c9", toolCallName: "word-count", toolCallArguments: {} }],
      },
    ];
    const spec = buildOpenAIChatRequest(request);
    expect(spec.body.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c9", type: "function", function: { name: "word-count", arguments: "{}" } }],
      },
    ]);
  });
});
