import { describe, expect, test } from "bun:test";
import { anthropicUrl, buildAnthropicRequest } from "../../src/providers/anthropic-request.ts";
import { sampleRequest } from "./sample-request.ts";

const anthropic = (overrides = {}, tools?: Parameters<typeof sampleRequest>[1]) =>
  buildAnthropicRequest(
    sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com", ...overrides }, tools),
  );

describe("Anthropic Messages request", () => {
  test("adds /v1/messages to a base without /v1, and only /messages to one with it", () => {
    expect(anthropicUrl("https://api.anthropic.com")).toBe("https://api.anthropic.com/v1/messages");
    expect(anthropicUrl("https://api.anthropic.com/")).toBe("https://api.anthropic.com/v1/messages");
    expect(anthropicUrl("http://127.0.0.1:8080/v1")).toBe("http://127.0.0.1:8080/v1/messages");
    expect(anthropicUrl("http://proxy/anthropic/v1/")).toBe("http://proxy/anthropic/v1/messages");
  });

  test("authenticates with x-api-key and anthropic-version, streams, and defaults max_tokens to 8192", () => {
    const spec = anthropic({ cache: false });
    expect(spec.url).toBe("https://api.anthropic.com/v1/messages");
    expect(spec.headers["x-api-key"]).toBe("sk-test");
    expect(spec.headers["anthropic-version"]).toBe("2023-06-01");
    expect("authorization" in spec.headers).toBe(false);
    expect(spec.body).toMatchObject({
      model: "wire-model-1",
      max_tokens: 8192,
      stream: true,
      system: "You are terse.",
    });
  });

  test("puts tool results first in the user message, sends signed thinking back and drops unsigned thinking", () => {
    expect(anthropic({ cache: false }).body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "count words in notes.txt" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan it", signature: "sig-1" },
          { type: "text", text: "Counting." },
          { type: "tool_use", id: "c1", name: "word-count", input: { path: "notes.txt" } },
          { type: "tool_use", id: "c2", name: "shell", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "42 words" },
          { type: "tool_result", tool_use_id: "c2", content: "invalid JSON arguments", is_error: true },
          { type: "text", text: "also say hi" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "notes.txt has 42 words. Hi!" }] },
      { role: "user", content: [{ type: "text", text: "thanks" }] },
    ]);
  });

  test("sends tools with input_schema, and no tools field when there are none", () => {
    expect(anthropic({ cache: false }).body.tools).toEqual([
      {
        name: "word-count",
        description: "Counts words in a file.",
        input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ]);
    expect("tools" in anthropic({}, []).body).toBe(false);
  });

  test("enables thinking with the thinking_max_tokens budget and keeps max_tokens above it", () => {
    expect(anthropic({ thinkingMaxTokens: 2048 }).body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 2048 },
      max_tokens: 8192,
    });
    expect(anthropic({ thinkingMaxTokens: 16000 }).body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 16000 },
      max_tokens: 24192,
    });
    expect(anthropic({ thinkingMaxTokens: 16000, maxTokens: 4000 }).body.max_tokens).toBe(4000);
    expect("thinking" in anthropic({ thinkingLevel: "high" }).body).toBe(false);
  });

  test("maps max_tokens, temperature and top_p", () => {
    expect(anthropic({ maxTokens: 1024, temperature: 0.3, topP: 0.8 }).body).toMatchObject({
      max_tokens: 1024,
      temperature: 0.3,
      top_p: 0.8,
    });
  });

  test("omits x-api-key when the key is empty and sends static and session headers", () => {
    const spec = anthropic({
      apiKey: "",
      headers: { "anthropic-beta": "interleaved-thinking-2025-05-14" },
      sessionHeader: "X-Session",
    });
    expect("x-api-key" in spec.headers).toBe(false);
    expect(spec.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    expect(spec.headers["X-Session"]).toBe("sess-42");
  });

  describe("prompt caching (on unless cache: false)", () => {
    const EPHEMERAL = { type: "ephemeral" };
    type Body = {
      system: unknown;
      tools: Array<Record<string, unknown>>;
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    };

    test("marks the last tool, the system prompt and the last block of the two newest user messages: four breakpoints", () => {
      const body = anthropic().body as Body;
      expect(body.system).toEqual([{ type: "text", text: "You are terse.", cache_control: EPHEMERAL }]);
      expect(body.tools.at(-1)?.cache_control).toEqual(EPHEMERAL);
      const marked = body.messages.flatMap((m, i) =>
        m.content.flatMap((b, j) => (b.cache_control ? [`${i}.${j}`] : [])),
      );
      expect(marked).toEqual(["2.2", "4.0"]);
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(4);
    });

    test("never more than four breakpoints, and the text and order of everything else unchanged", () => {
      const cached = anthropic().body as Body;
      const plain = anthropic({ cache: false }).body as Body;
      const strip = (value: unknown): unknown =>
        JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v)));
      expect(strip(cached.messages)).toEqual(plain.messages);
      expect(strip(cached.tools)).toEqual(plain.tools);
    });

    test("cache: false sends no cache_control and the system prompt as a plain string", () => {
      const body = anthropic({ cache: false }).body;
      expect(JSON.stringify(body)).not.toContain("cache_control");
      expect(body.system).toBe("You are terse.");
    });

    test("the breakpoint of this turn's newest message is the older breakpoint of the next turn", () => {
      const first = sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com" });
      const next = {
        ...first,
        messages: [
          ...first.messages,
          { role: "assistant" as const, blocks: [{ type: "text" as const, text: "ok" }] },
          { role: "user" as const, blocks: [{ type: "text" as const, text: "more" }] },
        ],
      };
      const a = buildAnthropicRequest(first).body as Body;
      const b = buildAnthropicRequest(next).body as Body;
      const newestA = a.messages.length - 1;
      expect(a.messages[newestA]?.content.at(-1)?.cache_control).toEqual(EPHEMERAL);
      expect(b.messages[newestA]?.content.at(-1)?.cache_control).toEqual(EPHEMERAL);
      expect(b.messages.at(-1)?.content.at(-1)?.cache_control).toEqual(EPHEMERAL);
    });
  });
});
