/**
 * Each HTTP adapter against the scripted provider server over real HTTP on
 * 127.0.0.1, through the public entry point (retries included). Waits
 * between retries are injected as no-ops: the schedule itself is tested in
 * retry.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { streamModel, type StreamEvent, type StreamModelOptions } from "../../src/providers/index.ts";
import type { ModelRequest, ProtocolName } from "../../src/providers/types.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { sampleModel, WORD_COUNT } from "./sample-request.ts";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});
afterEach(() => {
  // Every scripted turn must have been asked for: a leftover means a request we expected never came.
  expect(server.remaining()).toBe(0);
});

const sleeps: number[] = [];
const noWait: StreamModelOptions = {
  sleep: async (ms) => {
    sleeps.push(ms);
  },
  random: () => 0.5,
};

function request(protocol: ProtocolName, overrides: Partial<ModelRequest> = {}, base?: string): ModelRequest {
  const baseUrl = base ?? (protocol === "anthropic" ? server.url : `${server.url}/v1`);
  return {
    model: sampleModel({
      protocol,
      baseUrl,
      apiKey: "k-123",
      headers: { "X-Title": "rienda" },
      sessionHeader: "X-Session-Id",
    }),
    system: "Be brief.",
    messages: [{ role: "user", blocks: [{ type: "text", text: "count words in notes.txt" }] }],
    tools: [WORD_COUNT],
    sessionId: "sess-7",
    ...overrides,
  };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const textOf = (events: StreamEvent[]) =>
  events.flatMap((event) => (event.type === "text_delta" ? [event.text] : [])).join("");
const terminals = (events: StreamEvent[]) => events.filter((event) => event.type === "done" || event.type === "error");

const PROTOCOLS: ProtocolName[] = ["openai_chat_completions", "openai_responses", "anthropic"];
const EXPECTED_PATH: Record<string, string> = {
  openai_chat_completions: "/v1/chat/completions",
  openai_responses: "/v1/responses",
  anthropic: "/v1/messages",
};

for (const protocol of PROTOCOLS) {
  describe(`${protocol} over HTTP`, () => {
    test("streams text, thinking and tool calls (one with invalid JSON arguments) into one answer", async () => {
      server.script({
        thinking: "Count first.",
        text: "Let me count the words.",
        toolCalls: [
          { id: "call-a", name: "word-count", arguments: { path: "notes.txt", options: { unique: true } } },
          { id: "call-b", name: "word-count", rawArguments: '{"path": ' },
        ],
        usage: { input: 40, output: 9 },
      });
      const events = await collect(streamModel(request(protocol), noWait));
      expect(terminals(events)).toHaveLength(1);
      const last = events.at(-1);
      if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
      const blocks = last.response.message.blocks;
      expect(blocks.find((block) => block.type === "thinking")).toMatchObject({
        type: "thinking",
        thinking: "Count first.",
      });
      expect(blocks.filter((block) => block.type !== "thinking")).toEqual([
        { type: "text", text: "Let me count the words." },
        {
          type: "tool_call",
          toolCallId: "call-a",
          toolCallName: "word-count",
          toolCallArguments: { path: "notes.txt", options: { unique: true } },
        },
        { type: "tool_call", toolCallId: "call-b", toolCallName: "word-count", toolCallArguments: '{"path": ' },
      ]);
      expect(last.response.stopReason).toBe("tool_use");
      expect(last.response.usage).toMatchObject({ inputTokens: 40, outputTokens: 9 });
      expect(last.response.responseModel).toBe("wire-model-1");
      expect(textOf(events)).toBe("Let me count the words.");
      expect(
        events
          .filter((event) => event.type === "tool_call")
          .map((event) => (event.type === "tool_call" ? event.id : "")),
      ).toEqual(["call-a", "call-b"]);

      const [sent] = server.requests;
      expect(sent?.path).toBe(EXPECTED_PATH[protocol]);
      expect(sent?.headers["x-title"]).toBe("rienda");
      expect(sent?.headers["x-session-id"]).toBe("sess-7");
      if (protocol === "anthropic") {
        expect(sent?.headers["x-api-key"]).toBe("k-123");
        expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
      } else expect(sent?.headers.authorization).toBe("Bearer k-123");
      expect(JSON.stringify(sent?.body)).toContain('"word-count"');
    });

    test("sends no tools field when the agent has no tools", async () => {
      server.script({ text: "plain" });
      const events = await collect(streamModel(request(protocol, { tools: [] }), noWait));
      expect(textOf(events)).toBe("plain");
      expect(Object.keys(server.requests[0]?.body as object)).not.toContain("tools");
    });

    test("fails at once on HTTP 400 with the provider's message and the status", async () => {
      server.script({ error: { status: 400, message: "tools[0].parameters: invalid schema" } });
      const events = await collect(streamModel(request(protocol), noWait));
      expect(server.requests).toHaveLength(1);
      const base = protocol === "anthropic" ? server.url : `${server.url}/v1`;
      expect(events).toEqual([
        {
          type: "error",
          failure: {
            kind: "invalid_request",
            status: 400,
            retryable: false,
            message: `provider "local" (${base}): HTTP 400: tools[0].parameters: invalid schema`,
          },
        },
      ]);
    });

    test("retries HTTP 503 and 429, then answers", async () => {
      server.script(
        { error: { status: 503, message: "busy" } },
        { error: { status: 429, message: "slow down" } },
        { text: "third time lucky" },
      );
      const events = await collect(streamModel(request(protocol), noWait));
      expect(server.requests).toHaveLength(3);
      expect(
        events
          .filter((event) => event.type === "retry")
          .map((event) => (event.type === "retry" ? event.failure.message : "")),
      ).toEqual(["HTTP 503: busy", "HTTP 429: slow down"]);
      expect(events.at(-1)).toMatchObject({
        type: "done",
        response: { message: { blocks: [{ type: "text", text: "third time lucky" }] } },
      });
    });

    test("retries a stream cut mid-way, after announcing that its partial output is void", async () => {
      server.script(
        { text: "one two three four five six", cutAfter: 4 },
        { text: "one two three four five six", cutAfter: 4, cutMode: "end" },
        { text: "complete answer" },
      );
      const events = await collect(streamModel(request(protocol), noWait));
      expect(server.requests).toHaveLength(3);
      const retries = events.filter((event) => event.type === "retry");
      expect(retries).toHaveLength(2);
      const afterLastRetry = events.slice(events.lastIndexOf(retries[1]!) + 1);
      expect(textOf(afterLastRetry)).toBe("complete answer");
      // Dropped connection, then a body that ended cleanly without the end marker.
      expect(retries[0]).toMatchObject({ failure: { kind: "truncated_stream", retryable: true } });
      if (retries[0]?.type === "retry")
        expect(retries[0].failure.message).toStartWith(`the connection to ${server.url}`);
      expect(retries[1]).toMatchObject({
        failure: {
          kind: "truncated_stream",
          retryable: true,
          message: "the response stream ended before the provider finished it",
        },
      });
      expect(events.at(-1)).toMatchObject({ type: "done" });
    });

    test("retries an overloaded error sent inside the stream", async () => {
      server.script(
        { text: "partial", streamError: { type: "overloaded_error", message: "Overloaded" } },
        { text: "recovered" },
      );
      const events = await collect(streamModel(request(protocol), noWait));
      expect(events.find((event) => event.type === "retry")).toMatchObject({
        failure: { kind: "overloaded", retryable: true },
      });
      expect(events.at(-1)).toMatchObject({
        type: "done",
        response: { message: { blocks: [{ type: "text", text: "recovered" }] } },
      });
    });

    test("reads slow chunks to the end", async () => {
      server.script({ text: "slow but steady wins", chunkDelayMs: 15 });
      const events = await collect(streamModel(request(protocol), noWait));
      expect(textOf(events)).toBe("slow but steady wins");
    });

    test("an abort cancels a hanging request at once and is not retried", async () => {
      server.script({ text: "this never ends", hang: true });
      const controller = new AbortController();
      const events: StreamEvent[] = [];
      const consumed = (async () => {
        for await (const event of streamModel(request(protocol), { ...noWait, signal: controller.signal }))
          events.push(event);
      })();
      await server.waitForRequests(1);
      controller.abort();
      await consumed;
      await server.waitForClosed(1);
      expect(events.at(-1)).toEqual({
        type: "error",
        failure: { kind: "aborted", retryable: false, message: "the model request was interrupted" },
      });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.aborted).toBe(true);
    });

    test("times out a silent stream and retries it", async () => {
      server.script({ text: "silence", hang: true }, { text: "spoken" });
      const events = await collect(streamModel(request(protocol), { ...noWait, idleTimeoutMs: 150 }));
      expect(events.find((event) => event.type === "retry")).toMatchObject({
        failure: { kind: "timeout", retryable: true },
      });
      expect(events.at(-1)).toMatchObject({
        type: "done",
        response: { message: { blocks: [{ type: "text", text: "spoken" }] } },
      });
    });
  });
}

describe("any protocol", () => {
  test("gives up after 5 attempts when the scripted server runs out, quoting its message", async () => {
    sleeps.length = 0;
    const events = await collect(streamModel(request("openai_chat_completions"), noWait));
    expect(server.requests).toHaveLength(5);
    expect(sleeps).toEqual([500, 1000, 2000, 4000]);
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    if (last?.type === "error") expect(last.failure.message).toContain("HTTP 500: provider-server: script exhausted");
    expect(last?.type === "error" && last.failure.message.endsWith("(gave up after 5 attempts)")).toBe(true);
  });

  test("a refused connection to a local server: one quick retry, then says nothing listens there and how to start it", async () => {
    const closed = await startProviderServer();
    const url = closed.url;
    const port = new URL(url).port;
    await closed.close();
    sleeps.length = 0;
    const events = await collect(streamModel(request("openai_chat_completions", {}, `${url}/v1`), noWait));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(sleeps).toEqual([500]);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", failure: { kind: "network", retryable: true } });
    if (last?.type !== "error") return;
    expect(last.failure.message).toBe(
      `provider "local" (${url}/v1): cannot reach ${url}/v1/chat/completions: connection refused: nothing is listening on 127.0.0.1:${port} (gave up after 2 attempts). ` +
        "Start the model server, or set providers.local.base_url to where it listens",
    );
    expect(last.failure.message).not.toContain("Is the computer able");
  });

  test("a silent first byte and a silent gap mid-answer are told apart, each naming its key; retries follow the model's setting", async () => {
    const timing = {
      keys: {
        timeout: "providers.local.timeout",
        idleTimeout: "providers.local.models.m.idle_timeout",
        retries: "providers.local.retries",
      },
    };
    const model = (extra: object) =>
      request("openai_chat_completions", {
        model: { ...request("openai_chat_completions").model, timing: { ...timing, ...extra } },
      });
    server.script({ text: "late", chunkDelayMs: 2000 });
    const silent = await collect(streamModel(model({ timeoutMs: 150, retries: 0 }), noWait));
    expect(server.requests).toHaveLength(1);
    const first = silent.at(-1);
    if (first?.type !== "error") throw new Error("expected an error");
    expect(first.failure.kind).toBe("timeout");
    expect(first.failure.message).toContain(
      "within 150ms (first-byte timeout, providers.local.timeout); the server may still be reading the prompt, and a retry sends it again",
    );

    server.script({ text: "silence", hang: true }, { text: "spoken" });
    const gap = await collect(streamModel(model({ idleTimeoutMs: 150, retries: 1 }), noWait));
    const retry = gap.find((event) => event.type === "retry");
    if (retry?.type !== "retry") throw new Error("expected a retry");
    expect(retry.failure.message).toContain(
      "for 150ms in the middle of the answer (idle timeout, providers.local.models.m.idle_timeout)",
    );
    expect(gap.at(-1)).toMatchObject({
      type: "done",
      response: { message: { blocks: [{ type: "text", text: "spoken" }] } },
    });
  });
  test("a refused connection to a remote host keeps the whole retry schedule", async () => {
    const refused = Object.assign(
      new TypeError("ECONNREFUSED: Unable to connect. Is the computer able to access the url?"),
      { code: "ECONNREFUSED" },
    );
    const events = await collect(
      streamModel(request("openai_chat_completions", {}, "https://models.example.com/v1"), {
        ...noWait,
        fetch: () => Promise.reject(refused),
      }),
    );
    expect(events.filter((event) => event.type === "retry")).toHaveLength(4);
    const last = events.at(-1);
    if (last?.type !== "error") throw new Error("expected an error");
    expect(last.failure.message).toContain("nothing is listening on models.example.com (gave up after 5 attempts)");
    expect(last.failure.message).toContain("Check providers.local.base_url");
    expect(last.failure.message).not.toContain("Is the computer able");
  });

  test("a 200 answer in JSON instead of an event stream is reported, and retried only when it is a transient error", async () => {
    server.script(
      { error: { status: 200, body: JSON.stringify({ error: { message: "upstream overloaded", code: 503 } }) } },
      {
        error: { status: 200, body: JSON.stringify({ id: "x", choices: [{ message: { content: "not streamed" } }] }) },
      },
    );
    const events = await collect(streamModel(request("openai_chat_completions"), noWait));
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      failure: { kind: "server", message: "provider error (503): upstream overloaded" },
    });
    expect(events.at(-1)).toEqual({
      type: "error",
      failure: {
        kind: "invalid_request",
        retryable: false,
        message: `provider "local" (${server.url}/v1): ${server.url}/v1/chat/completions answered with JSON instead of an event stream (does the server support "stream": true?)`,
      },
    });
  });

  test("honours retry-after from a 429", async () => {
    sleeps.length = 0;
    server.script({ error: { status: 429, message: "slow", headers: { "retry-after": "2" } } }, { text: "ok" });
    const events = await collect(streamModel(request("anthropic"), noWait));
    expect(sleeps).toEqual([2000]);
    expect(events.at(-1)).toMatchObject({ type: "done" });
  });

  test("an anthropic base URL ending in /v1 is not given a second /v1", async () => {
    server.script({ text: "ok" });
    await collect(streamModel(request("anthropic", {}, `${server.url}/v1`), noWait));
    expect(server.requests[0]?.path).toBe("/v1/messages");
  });

  test("chat servers that send reasoning as `reasoning` and omit [DONE] still give a complete answer", async () => {
    server.script({ thinking: "hmm", text: "fine", reasoningField: "reasoning", omitDone: true });
    const events = await collect(streamModel(request("openai_chat_completions"), noWait));
    expect(events.at(-1)).toMatchObject({
      type: "done",
      response: {
        message: {
          blocks: [
            { type: "thinking", thinking: "hmm" },
            { type: "text", text: "fine" },
          ],
        },
        stopReason: "end_turn",
      },
    });
  });
});
