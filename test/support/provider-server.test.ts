import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startProviderServer, type ProviderServer } from "./provider-server.ts";

let server: ProviderServer;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await server.close();
});

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
  if (signal) init.signal = signal;
  return fetch(`${server.url}${path}`, init);
}

/** The `data:` payloads of an SSE body, in order. */
function dataLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice("data: ".length));
}

describe("scripted provider server", () => {
  test("records method, path, headers and the parsed JSON body of every request", async () => {
    server.script({ text: "hi" });
    await (await post("/v1/chat/completions", { model: "m1", messages: [] }, { "x-session-id": "s-1" })).text();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.protocol).toBe("openai_chat_completions");
    expect(request?.headers["x-session-id"]).toBe("s-1");
    expect(request?.body).toEqual({ model: "m1", messages: [] });
    expect(request?.aborted).toBe(false);
  });

  test("streams a chat completion whose text pieces, tool-call fragments and usage follow the wire format", async () => {
    server.script({
      text: "two words",
      toolCalls: [{ id: "c1", name: "echo", arguments: { say: "hello" } }],
      usage: { input: 3, output: 4 },
    });
    const body = await (await post("/chat/completions", { model: "m1" })).text();
    const payloads = dataLines(body);
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map((line) => JSON.parse(line));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe("two words");
    const args = chunks
      .flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? [])
      .map((call) => call.function?.arguments ?? "")
      .join("");
    expect(JSON.parse(args)).toEqual({ say: "hello" });
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === "tool_calls")).toBe(true);
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
  });

  test("chooses the protocol from the path, with or without /v1", async () => {
    server.script({ text: "a" }, { text: "b" }, { text: "c" });
    const responses = await (await post("/responses", { model: "m" })).text();
    const anthropic = await (await post("/v1/messages", { model: "m" })).text();
    const anthropicNoV1 = await (await post("/messages", { model: "m" })).text();
    expect(responses).toContain("event: response.completed");
    expect(anthropic).toContain("event: message_stop");
    expect(anthropicNoV1).toContain("event: message_stop");
    expect(server.requests.map((request) => request.protocol)).toEqual(["openai_responses", "anthropic", "anthropic"]);
  });

  test("answers an unknown path with 404 without consuming a turn", async () => {
    server.script({ text: "kept" });
    const response = await post("/v1/completions", {});
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("no protocol serves /v1/completions");
    expect(server.remaining()).toBe(1);
  });

  test("fails loudly with HTTP 500 when the script is exhausted", async () => {
    const response = await post("/v1/chat/completions", {});
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("script exhausted: request #1");
  });

  test("injects HTTP errors in each vendor's error shape, with headers", async () => {
    server.script(
      { error: { status: 429, message: "slow down", headers: { "retry-after": "2" } } },
      { error: { status: 529, message: "Overloaded", type: "overloaded_error" } },
    );
    const openai = await post("/v1/responses", {});
    expect(openai.status).toBe(429);
    expect(openai.headers.get("retry-after")).toBe("2");
    expect(await openai.json()).toEqual({
      error: { message: "slow down", type: "invalid_request_error", param: null, code: null },
    });
    const anthropic = await post("/v1/messages", {});
    expect(anthropic.status).toBe(529);
    expect(await anthropic.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  });

  test("cuts a stream before its closing events", async () => {
    server.script({ text: "one two three four", cutAfter: 3, cutMode: "end" });
    const body = await (await post("/v1/messages", {})).text();
    expect(body).toContain("event: message_start");
    expect(body).not.toContain("message_stop");
    expect(body).not.toContain("message_delta");
  });

  test("sends an in-stream error in place of the end", async () => {
    server.script({ text: "partial", streamError: { type: "overloaded_error", message: "Overloaded" } });
    const body = await (await post("/v1/messages", {})).text();
    expect(body).toContain(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    expect(body).not.toContain("message_stop");
  });

  test("a hanging turn stays open until the client goes away, and is recorded as aborted", async () => {
    server.script({ text: "never finished", hang: true });
    const controller = new AbortController();
    const response = await post("/v1/chat/completions", {}, {}, controller.signal);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("chat.completion.chunk");
    controller.abort();
    await server.waitForClosed(1);
    expect(server.requests[0]?.aborted).toBe(true);
  });

  test("a turn given as a function sees the request it answers", async () => {
    server.script((request) => ({ text: `you sent ${(request.body as { model: string }).model}` }));
    const body = await (await post("/v1/chat/completions", { model: "echo-model" })).text();
    const text = dataLines(body)
      .filter((line) => line !== "[DONE]")
      .map((line) => JSON.parse(line).choices[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe("you sent echo-model");
  });
});
