/**
 * A scripted model provider on 127.0.0.1 for tests: it speaks the real wire
 * formats of the three protocols (Chat Completions, Responses, Anthropic
 * Messages, all streamed as SSE), chosen by the request path
 * (`.../chat/completions`, `.../responses`, `.../messages`, with or without
 * `/v1`). Each request consumes the next scripted turn, written in one
 * protocol-neutral form; turns can also inject HTTP errors, cut streams,
 * slow chunks, in-stream errors, or hang until the client goes away.
 * Every request is recorded. A request with no turn left gets HTTP 500 with
 * a body saying so, so a test that under-scripts fails loudly.
 *
 * Standalone on purpose: it never imports src/, so it checks our adapters
 * against the wire contract instead of against themselves.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Defaults to a protocol-looking id unique in this server. */
  id?: string;
  name: string;
  /** Encoded as JSON on the wire. Ignored when `rawArguments` is set. */
  arguments?: unknown;
  /** Sent verbatim as the arguments text (e.g. invalid JSON). */
  rawArguments?: string;
}

/** Token counts the scripted provider reports. */
export interface ScriptedUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** An HTTP error answer in the vendor's error shape. */
export interface ScriptedHttpError {
  status: number;
  message?: string;
  /** The vendor error type (`rate_limit_error`, `server_error`, ...). */
  type?: string;
  /** OpenAI-style error code (`context_length_exceeded`, ...). */
  code?: string;
  headers?: Record<string, string>;
  /** Sent verbatim instead of the vendor-shaped JSON. */
  body?: string;
}

/** One scripted answer, in a protocol-neutral form. */
export interface ScriptedTurn {
  text?: string;
  thinking?: string;
  /** Anthropic thinking signature; defaults to `sig-<request number>` when there is thinking. */
  signature?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Defaults to `tool_use` with tool calls, else `end_turn`. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens";
  /** The model name reported in the stream; defaults to the request's `model`. */
  model?: string;
  /** Answer with this HTTP error instead of a stream. */
  error?: ScriptedHttpError;
  /** Close the connection after this many SSE events, always before the closing ones. */
  cutAfter?: number;
  /** How a cut closes: destroy the socket (default) or end the body cleanly. */
  cutMode?: "destroy" | "end";
  /** Wait before each SSE event. */
  chunkDelayMs?: number;
  /** Send the opening events, then keep the connection open until the client goes away. */
  hang?: boolean;
  /** With `hang`: how many content events are sent before the stream stalls (default 2). */
  hangAfter?: number;
  /** After the content, send an error event in the vendor's in-stream shape instead of the end. */
  streamError?: { type: string; message: string };
  /** Chat Completions only: the delta field carrying thinking. */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Chat Completions only: leave out the final `data: [DONE]`. */
  omitDone?: boolean;
  /** A whole recorded SSE body, sent byte for byte instead of an encoded turn (test/corpus). */
  recorded?: string | Uint8Array;
}

/** The protocol a request spoke, from its path. */
export type WireProtocol = "openai_chat_completions" | "openai_responses" | "anthropic";

/** One request as the server received it. */
export interface RecordedRequest {
  /** 1-based order of arrival. */
  index: number;
  method: string;
  path: string;
  /** The query string, `?` included; empty when there is none. */
  query: string;
  protocol: WireProtocol | undefined;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** True when the client went away before the answer was complete. */
  aborted: boolean;
}

/** A turn, or a function of the request that returns one. */
export type TurnSource = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn);

/** The running server. */
export interface ProviderServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** The requests to a protocol's endpoint (chat/completions, responses, messages), in order. */
  readonly requests: RecordedRequest[];
  /**
   * Every other request (a local server's context-window probes: GET
   * /props, /api/ps, /v1/models, POST /api/show), answered 404 unless
   * `answer` gave the path a body. Kept apart so they never take a turn.
   */
  readonly otherRequests: RecordedRequest[];
  /** Answers `method path` (e.g. `GET /props`) with `body` as JSON from now on. */
  answer(methodAndPath: string, body: unknown): void;
  /** Queues turns, answered in order. */
  script(...turns: TurnSource[]): void;
  /** Turns not yet consumed. */
  remaining(): number;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once the client of request `index` (1-based) has gone away or its answer finished. */
  waitForClosed(index: number, timeoutMs?: number): Promise<void>;
  /** Forgets every request and unconsumed turn (for a server shared by several tests). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a scripted provider on an ephemeral port of 127.0.0.1, or on `port` when given. */
export async function startProviderServer(listenPort = 0): Promise<ProviderServer> {
  const queue: TurnSource[] = [];
  const requests: RecordedRequest[] = [];
  const otherRequests: RecordedRequest[] = [];
  const answers = new Map<string, unknown>();
  const closed = new Set<RecordedRequest>();
  const waiters = new Set<() => void>();
  const sockets = new Set<import("node:net").Socket>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`provider-server: internal failure: ${String(error)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const query = (req.url ?? "").slice(path.length);
    if (!protocolOf(path)) {
      otherRequests.push({
        index: otherRequests.length + 1,
        method: req.method ?? "GET",
        path,
        query,
        protocol: undefined,
        headers: {},
        body,
        aborted: false,
      });
      const answer = answers.get(`${req.method ?? "GET"} ${path}`);
      if (answer !== undefined) sendJson(res, 200, answer);
      else
        sendJson(res, 404, {
          error: {
            message: `provider-server: no protocol serves ${path} (expected .../chat/completions, .../responses or .../messages)`,
            type: "not_found",
          },
        });
      return;
    }
    const record: RecordedRequest = {
      index: requests.length + 1,
      method: req.method ?? "GET",
      path,
      query,
      protocol: protocolOf(path),
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      ),
      body,
      aborted: false,
    };
    requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished) record.aborted = true;
      closed.add(record);
      notify();
    });
    notify();

    if (!record.protocol) return;
    const source = queue.shift();
    if (!source) {
      sendJson(res, 500, {
        error: {
          message: `provider-server: script exhausted: request #${record.index} (${record.method} ${path}) has no scripted turn`,
          type: "script_exhausted",
        },
      });
      return;
    }
    const turn = typeof source === "function" ? source(record) : source;
    if (turn.error) {
      sendError(res, record.protocol, turn.error);
      return;
    }
    if (turn.recorded !== undefined) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(turn.recorded);
      return;
    }
    const model = turn.model ?? (isRecord(body) && typeof body.model === "string" ? body.model : "scripted-model");
    const wire = encodeTurn(record.protocol, turn, model, record.index);
    await stream(res, turn, wire);
  }

  async function stream(res: ServerResponse, turn: ScriptedTurn, wire: WireEvents): Promise<void> {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    let events = [...wire.content, ...(turn.streamError ? [wire.error(turn.streamError)] : wire.closing)];
    let cut = false;
    if (turn.hang) events = wire.content.slice(0, Math.min(turn.hangAfter ?? 2, wire.content.length));
    else if (turn.cutAfter !== undefined) {
      events = wire.content.slice(0, Math.min(turn.cutAfter, wire.content.length));
      cut = true;
    }
    for (const event of events) {
      if (turn.chunkDelayMs) await delay(turn.chunkDelayMs);
      if (res.destroyed) return;
      res.write(event);
    }
    if (turn.hang) return; // left open: "close" fires when the client goes away
    if (cut && (turn.cutMode ?? "destroy") === "destroy") {
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor = (ready: () => boolean, what: string, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`provider-server: timed out waiting for ${what} (${requests.length} request(s) so far)`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    otherRequests,
    answer: (methodAndPath, body) => void answers.set(methodAndPath, body),
    script: (...turns) => void queue.push(...turns),
    remaining: () => queue.length,
    waitForRequests: (count, timeoutMs = 10_000) =>
      waitFor(() => requests.length >= count, `${count} request(s)`, timeoutMs),
    waitForClosed: (index, timeoutMs = 10_000) =>
      waitFor(
        () => [...closed].some((record) => record.index === index && requests.includes(record)),
        `request #${index} to close`,
        timeoutMs,
      ),
    reset: () => {
      requests.length = 0;
      otherRequests.length = 0;
      queue.length = 0;
      closed.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function protocolOf(path: string): WireProtocol | undefined {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed.endsWith("/chat/completions")) return "openai_chat_completions";
  if (trimmed.endsWith("/responses")) return "openai_responses";
  if (trimmed.endsWith("/messages")) return "anthropic";
  return undefined;
}

// --- wire encoding --------------------------------------------------------

/** The SSE frames of one answer: the content, the normal end, and an error end. */
interface WireEvents {
  content: string[];
  closing: string[];
  error(error: { type: string; message: string }): string;
}

function encodeTurn(protocol: WireProtocol, turn: ScriptedTurn, model: string, n: number): WireEvents {
  if (protocol === "openai_chat_completions") return encodeChat(turn, model, n);
  if (protocol === "openai_responses") return encodeResponses(turn, model, n);
  return encodeAnthropic(turn, model, n);
}

function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** Splits text into word-sized pieces, as models stream it. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu) ?? [];
}

/** Splits an arguments text into three fragments, to exercise reassembly. */
function fragments(text: string): string[] {
  if (text.length < 3) return text === "" ? [] : [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

function argumentsText(call: ScriptedToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.arguments ?? {});
}

function stopOf(turn: ScriptedTurn): "end_turn" | "tool_use" | "max_tokens" {
  return turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
}

function usageOf(turn: ScriptedTurn): Required<ScriptedUsage> {
  return { input: 12, output: 7, cacheRead: 0, cacheWrite: 0, reasoning: 0, ...turn.usage };
}

function encodeChat(turn: ScriptedTurn, model: string, n: number): WireEvents {
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1_700_000_000 + n, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const field = turn.reasoningField ?? "reasoning_content";
  const content = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces(turn.thinking ?? "")) content.push(chunk({ [field]: piece }));
  for (const piece of pieces(turn.text ?? "")) content.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `call_${n}_${index + 1}`;
    content.push(
      chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const fragment of fragments(argumentsText(call)))
      content.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
  });
  const stop = stopOf(turn);
  const finish = stop === "tool_use" ? "tool_calls" : stop === "max_tokens" ? "length" : "stop";
  const usage = usageOf(turn);
  const closing = [
    chunk({}, finish),
    sse({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cacheRead },
        completion_tokens_details: { reasoning_tokens: usage.reasoning },
      },
    }),
  ];
  if (!turn.omitDone) closing.push(sse("[DONE]"));
  return {
    content,
    closing,
    error: (error) => sse({ error: { message: error.message, type: error.type, code: error.type } }),
  };
}

function encodeResponses(turn: ScriptedTurn, model: string, n: number): WireEvents {
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...data }, type);
  const responseId = `resp_${n}`;
  const response = (status: string, extra: Record<string, unknown> = {}) => ({
    id: responseId,
    object: "response",
    created_at: 1_700_000_000 + n,
    status,
    model,
    output: [],
    usage: null,
    ...extra,
  });
  const content = [
    event("response.created", { response: response("in_progress") }),
    event("response.in_progress", { response: response("in_progress") }),
  ];
  const output: unknown[] = [];
  let index = 0;
  if (turn.thinking) {
    const id = `rs_${n}`;
    const output_index = index++;
    content.push(event("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } }));
    content.push(
      event("response.reasoning_summary_part.added", {
        item_id: id,
        output_index,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      }),
    );
    for (const piece of pieces(turn.thinking))
      content.push(
        event("response.reasoning_summary_text.delta", { item_id: id, output_index, summary_index: 0, delta: piece }),
      );
    content.push(
      event("response.reasoning_summary_text.done", {
        item_id: id,
        output_index,
        summary_index: 0,
        text: turn.thinking,
      }),
    );
    const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: turn.thinking }] };
    content.push(event("response.output_item.done", { output_index, item }));
    output.push(item);
  }
  if (turn.text) {
    const id = `msg_${n}`;
    const output_index = index++;
    content.push(
      event("response.output_item.added", {
        output_index,
        item: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
      }),
    );
    content.push(
      event("response.content_part.added", {
        item_id: id,
        output_index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      }),
    );
    for (const piece of pieces(turn.text))
      content.push(event("response.output_text.delta", { item_id: id, output_index, content_index: 0, delta: piece }));
    content.push(event("response.output_text.done", { item_id: id, output_index, content_index: 0, text: turn.text }));
    const part = { type: "output_text", text: turn.text, annotations: [] };
    content.push(event("response.content_part.done", { item_id: id, output_index, content_index: 0, part }));
    const item = { id, type: "message", status: "completed", role: "assistant", content: [part] };
    content.push(event("response.output_item.done", { output_index, item }));
    output.push(item);
  }
  (turn.toolCalls ?? []).forEach((call, k) => {
    const id = `fc_${n}_${k + 1}`;
    const call_id = call.id ?? `call_${n}_${k + 1}`;
    const output_index = index++;
    const args = argumentsText(call);
    content.push(
      event("response.output_item.added", {
        output_index,
        item: { id, type: "function_call", status: "in_progress", arguments: "", call_id, name: call.name },
      }),
    );
    for (const fragment of fragments(args))
      content.push(event("response.function_call_arguments.delta", { item_id: id, output_index, delta: fragment }));
    content.push(event("response.function_call_arguments.done", { item_id: id, output_index, arguments: args }));
    const item = { id, type: "function_call", status: "completed", arguments: args, call_id, name: call.name };
    content.push(event("response.output_item.done", { output_index, item }));
    output.push(item);
  });
  const usage = usageOf(turn);
  const wireUsage = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
  const closing =
    stopOf(turn) === "max_tokens"
      ? [
          event("response.incomplete", {
            response: response("incomplete", {
              output,
              usage: wireUsage,
              incomplete_details: { reason: "max_output_tokens" },
            }),
          }),
        ]
      : [event("response.completed", { response: response("completed", { output, usage: wireUsage }) })];
  return {
    content,
    closing,
    error: (error) => event("error", { code: error.type, message: error.message, param: null }),
  };
}

function encodeAnthropic(turn: ScriptedTurn, model: string, n: number): WireEvents {
  const event = (type: string, data: Record<string, unknown>) => sse({ type, ...data }, type);
  const usage = usageOf(turn);
  const content = [
    event("message_start", {
      message: {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: usage.cacheWrite,
          cache_read_input_tokens: usage.cacheRead,
          output_tokens: 1,
        },
      },
    }),
    event("ping", {}),
  ];
  let index = 0;
  if (turn.thinking) {
    const at = index++;
    content.push(
      event("content_block_start", { index: at, content_block: { type: "thinking", thinking: "", signature: "" } }),
    );
    for (const piece of pieces(turn.thinking))
      content.push(event("content_block_delta", { index: at, delta: { type: "thinking_delta", thinking: piece } }));
    content.push(
      event("content_block_delta", {
        index: at,
        delta: { type: "signature_delta", signature: turn.signature ?? `sig-${n}` },
      }),
    );
    content.push(event("content_block_stop", { index: at }));
  }
  if (turn.text) {
    const at = index++;
    content.push(event("content_block_start", { index: at, content_block: { type: "text", text: "" } }));
    for (const piece of pieces(turn.text))
      content.push(event("content_block_delta", { index: at, delta: { type: "text_delta", text: piece } }));
    content.push(event("content_block_stop", { index: at }));
  }
  (turn.toolCalls ?? []).forEach((call, k) => {
    const at = index++;
    content.push(
      event("content_block_start", {
        index: at,
        content_block: { type: "tool_use", id: call.id ?? `toolu_${n}_${k + 1}`, name: call.name, input: {} },
      }),
    );
    for (const fragment of fragments(argumentsText(call)))
      content.push(
        event("content_block_delta", { index: at, delta: { type: "input_json_delta", partial_json: fragment } }),
      );
    content.push(event("content_block_stop", { index: at }));
  });
  const closing = [
    event("message_delta", {
      delta: { stop_reason: stopOf(turn), stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
    event("message_stop", {}),
  ];
  return {
    content,
    closing,
    error: (error) => event("error", { error: { type: error.type, message: error.message } }),
  };
}

// --- plain HTTP -------------------------------------------------------------

function sendError(res: ServerResponse, protocol: WireProtocol, error: ScriptedHttpError): void {
  const message = error.message ?? `scripted error ${error.status}`;
  const payload =
    error.body ??
    JSON.stringify(
      protocol === "anthropic"
        ? {
            type: "error",
            error: { type: error.type ?? (error.status >= 500 ? "api_error" : "invalid_request_error"), message },
          }
        : {
            error: {
              message,
              type: error.type ?? (error.status >= 500 ? "server_error" : "invalid_request_error"),
              param: null,
              code: error.code ?? null,
            },
          },
    );
  res.writeHead(error.status, { "content-type": "application/json", ...error.headers });
  res.end(payload);
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(payload));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
