import { describe, expect, test } from "bun:test";
import { buildOpenAIResponsesRequest } from "../../src/providers/openai-responses-request.ts";
import { sampleRequest } from "./sample-request.ts";

const responses = (overrides = {}, tools?: Parameters<typeof sampleRequest>[1]) =>
  buildOpenAIResponsesRequest(
    sampleRequest({ protocol: "openai_responses", baseUrl: "https://api.openai.com/v1", ...overrides }, tools),
  );

describe("Responses API request", () => {
  test("posts to {base}/responses with store false, streaming, bearer auth and instructions", () => {
    const spec = responses();
    expect(spec.url).toBe("https://api.openai.com/v1/responses");
    expect(spec.headers.authorization).toBe("Bearer sk-test");
    expect(spec.body).toMatchObject({
      model: "wire-model-1",
      store: false,
      stream: true,
      instructions: "You are terse.",
    });
  });

  test("turns the conversation into input items with function_call and function_call_output", () => {
    expect(responses().body.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "count words in notes.txt" }] },
      { role: "assistant", content: [{ type: "output_text", text: "Counting." }] },
      { type: "function_call", call_id: "c1", name: "word-count", arguments: '{"path":"notes.txt"}' },
      { type: "function_call", call_id: "c2", name: "shell", arguments: '{"command": "wc' },
      { type: "function_call_output", call_id: "c1", output: "42 words" },
      { type: "function_call_output", call_id: "c2", output: "invalid JSON arguments" },
      { role: "user", content: [{ type: "input_text", text: "also say hi" }] },
      { role: "assistant", content: [{ type: "output_text", text: "notes.txt has 42 words. Hi!" }] },
      { role: "user", content: [{ type: "input_text", text: "thanks" }] },
    ]);
  });

  test("sends tools flat as {type: function, name, description, parameters}, non-strict", () => {
    expect(responses().body.tools).toEqual([
      {
        type: "function",
        name: "word-count",
        description: "Counts words in a file.",
        parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        strict: false,
      },
    ]);
  });

  test("has no tools field at all when the agent has no tools", () => {
    expect("tools" in responses({}, []).body).toBe(false);
  });

  test("maps max_output_tokens, temperature, top_p and reasoning effort with a summary", () => {
    const spec = responses({ maxTokens: 1000, temperature: 1.5, topP: 0.5, thinkingLevel: "minimal" });
    expect(spec.body).toMatchObject({
      max_output_tokens: 1000,
      temperature: 1.5,
      top_p: 0.5,
      reasoning: { effort: "minimal", summary: "auto" },
    });
    const unset = responses().body;
    for (const key of ["max_output_tokens", "temperature", "top_p", "reasoning", "max_tokens"])
      expect(key in unset).toBe(false);
  });

  test("sends static and session headers", () => {
    const spec = responses({ headers: { "OpenAI-Organization": "org-1" }, sessionHeader: "session_id" });
    expect(spec.headers["OpenAI-Organization"]).toBe("org-1");
    expect(spec.headers.session_id).toBe("sess-42");
  });
});
