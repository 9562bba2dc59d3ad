/** Sends one model request over HTTP and streams its answer, with the first-byte and idle timers, as StreamEvents. */
import { classifyHttpError } from "./classify-http-error.ts";
import { classifyStreamError } from "./classify-stream-error.ts";
import { describeNetworkError, isLocalUrl } from "./describe-network-error.ts";
import { durationText } from "../limits/index.ts";
import { parseRetryAfter } from "./parse-retry-after.ts";
import { abortedFailure, providerFailure } from "./provider-failure.ts";
import { mapSseStream } from "./map-sse-stream.ts";
import { shownUrl, urlSecrets } from "./shown-url.ts";
import { fetchWithinOrigin, type RefusedRedirect } from "./within-origin.ts";
import type {
  AdapterDeps,
  HttpRequestSpec,
  ProviderFailure,
  StreamEvent,
  StreamMapper,
  StreamTiming,
} from "./types.ts";
import { headerSecret, hideSecrets } from "../values.ts";

/** Error bodies are read up to this size; the message needs only the start. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Sends one streaming request and maps its SSE body through `mapper`. Never
 * throws: every outcome ends in exactly one `done` or `error` event. The
 * request is cancelled at once when `signal` aborts, when no byte arrives
 * for `idleTimeoutMs`, or when the consumer stops iterating. A failure's
 * message never carries the request's credentials (its headers' values,
 * the password and query values of its URL), even when the server echoes
 * them back (a proxy quoting the key it refused).
 */
export async function* streamHttp(
  spec: HttpRequestSpec,
  mapper: StreamMapper,
  deps: Pick<AdapterDeps, "fetch" | "timing">,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  // A key in base_url's query (`?key=…`) is as secret as one in a header: a server's error body may echo the URL.
  const secrets = [...credentialsOf(spec.headers), ...urlSecrets(spec.url)];
  for await (const event of streamOnce(spec, mapper, deps, signal)) {
    yield event.type === "error" && secrets.length > 0
      ? { ...event, failure: { ...event.failure, message: hideSecrets(event.failure.message, secrets) } }
      : event;
  }
}

/** Headers that never carry a secret; every other value (auth, a gateway's key) is hidden from messages. */
const PLAIN_HEADERS = new Set(["content-type", "accept", "anthropic-version", "anthropic-beta", "user-agent"]);

/** The secret values among `headers` (of `Bearer <token>`, the token); short values are left alone (they would hide ordinary words). */
function credentialsOf(headers: Record<string, string>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (PLAIN_HEADERS.has(name.toLowerCase())) continue;
    const secret = headerSecret(value);
    if (secret.length >= 8) found.add(secret);
  }
  return [...found];
}

async function* streamOnce(
  spec: HttpRequestSpec,
  mapper: StreamMapper,
  deps: Pick<AdapterDeps, "fetch" | "timing">,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  if (signal.aborted) {
    yield { type: "error", failure: abortedFailure() };
    return;
  }
  const controller = new AbortController();
  // Which timer fired: none yet, the first byte's (`timeout`), or the gap between bytes (`idle_timeout`).
  let timedOut: "first_byte" | "idle" | undefined;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    const phase = started ? "idle" : "first_byte";
    timer = setTimeout(
      () => {
        timedOut = phase;
        controller.abort();
      },
      phase === "idle" ? deps.timing.idleTimeoutMs : deps.timing.timeoutMs,
    );
  };
  const onFirstByte = () => {
    started = true;
    arm();
  };
  const onAbort = () => controller.abort();
  // Messages name the URL without the credentials it may carry.
  const url = shownUrl(spec.url);
  signal.addEventListener("abort", onAbort, { once: true });
  const failureOf = (error: unknown, midStream = false): ProviderFailure => {
    if (signal.aborted) return abortedFailure();
    if (timedOut) return timeoutFailure(url, timedOut, deps.timing);
    const problem = describeNetworkError(error, spec.url);
    if (midStream)
      return providerFailure("truncated_stream", `the connection to ${url} broke mid-answer: ${problem.text}`);
    // Contract §7 retries network errors; but nothing listening on this machine means a server not started
    // (one loading its model already listens and answers 503): one quick retry, then the hint to start it.
    if (problem.refused && isLocalUrl(spec.url))
      return providerFailure("network", `cannot reach ${url}: ${problem.text}`, { maxAttempts: 2 });
    return providerFailure("network", `cannot reach ${url}: ${problem.text}`);
  };
  try {
    arm();
    let response: Response;
    try {
      const outcome = await fetchWithinOrigin(deps.fetch, spec.url, {
        method: "POST",
        headers: spec.headers,
        body: JSON.stringify(spec.body),
        signal: controller.signal,
      });
      if ("refused" in outcome) {
        yield { type: "error", failure: redirectFailure(outcome.refused) };
        return;
      }
      response = outcome.response;
    } catch (error) {
      yield { type: "error", failure: failureOf(error) };
      return;
    }
    if (!response.ok) {
      let text = "";
      try {
        text = await readCapped(response, MAX_ERROR_BODY_BYTES);
      } catch {
        if (signal.aborted) {
          yield { type: "error", failure: abortedFailure() };
          return;
        }
      }
      yield { type: "error", failure: classifyHttpError(response.status, text, parseRetryAfter(response.headers)) };
      return;
    }
    const contentType = (response.headers.get("content-type") ?? "").toLowerCase();
    // A web page (a proxy's login, an app on that port, a base_url missing /v1) never turns into a stream,
    // nor does a 200 JSON body (an error, or `stream: true` ignored): said at once, no retry.
    const insteadOfStream = contentType.includes("text/html")
      ? htmlInsteadOfStream
      : contentType.includes("application/json")
        ? jsonInsteadOfStream
        : undefined;
    if (insteadOfStream) {
      let text: string;
      try {
        text = await readCapped(response, MAX_ERROR_BODY_BYTES);
      } catch (error) {
        yield { type: "error", failure: failureOf(error) };
        return;
      }
      yield { type: "error", failure: insteadOfStream(url, text) };
      return;
    }
    if (!response.body) {
      yield { type: "error", failure: providerFailure("truncated_stream", `${url} answered without a body`) };
      return;
    }
    let ended = false;
    // The start of the body and whether it held any event: a body with none is not a cut stream but something else.
    const seen = { head: "", events: 0 };
    const counting: StreamMapper = {
      push: (event) => {
        seen.events++;
        return mapper.push(event);
      },
      end: () => mapper.end(),
    };
    try {
      for await (const event of mapSseStream(chunksOf(response.body, onFirstByte, controller.signal, seen), counting)) {
        const terminal = event.type === "done" || event.type === "error";
        // A body that ended because we were aborted is not the provider's truncation.
        if (terminal && signal.aborted) break;
        ended = terminal;
        if (event.type === "error" && seen.events === 0 && seen.head.trim() !== "") {
          yield { type: "error", failure: notAStream(url, seen.head) };
          return;
        }
        yield event;
      }
    } catch (error) {
      yield { type: "error", failure: failureOf(error, true) };
      return;
    }
    if (!ended) yield { type: "error", failure: abortedFailure() };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    // Releases the connection when we stop early (terminal event, consumer gone).
    controller.abort();
  }
}

/**
 * The body's chunks, re-arming the idle timer on each. Racing every read
 * against the abort signal makes cancellation immediate even where a runtime
 * would let a pending read linger after the fetch was aborted.
 */
async function* chunksOf(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void,
  signal: AbortSignal,
  seen: { head: string },
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error("aborted"));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    while (true) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return;
      onChunk();
      if (value && seen.head.length < HEAD_CHARS)
        seen.head += decoder.decode(value.subarray(0, HEAD_CHARS), { stream: true });
      if (value && value.byteLength > 0) yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * A timed-out attempt, naming which timeout fired and its key. A local
 * server that never sent a first byte may still be reading the prompt: the
 * message says a retry sends it again rather than doing so silently.
 */
function timeoutFailure(url: string, phase: "first_byte" | "idle", timing: StreamTiming): ProviderFailure {
  if (phase === "idle") {
    return providerFailure(
      "timeout",
      `no data from ${url} for ${durationText(timing.idleTimeoutMs)} in the middle of the answer (idle timeout, ${timing.keys.idleTimeout})`,
    );
  }
  const still = timing.local ? "; the server may still be reading the prompt, and a retry sends it again" : "";
  return providerFailure(
    "timeout",
    `no answer from ${url} within ${durationText(timing.timeoutMs)} (first-byte timeout, ${timing.keys.timeout})${still}`,
  );
}

/**
 * A redirect the request did not follow (within-origin.ts): where it
 * pointed and why not. Never retried: the next attempt would be sent the
 * same answer. explain-failure.ts adds which base_url to set.
 */
function redirectFailure(refused: RefusedRedirect): ProviderFailure {
  const head = `${shownUrl(refused.from)} answered ${refused.status} redirecting to ${shownUrl(refused.to)}`;
  const why =
    refused.reason === "origin"
      ? "another origin: not followed, since the key, the configured headers and the conversation would be sent there"
      : refused.reason === "method"
        ? `not followed: a ${refused.status} turns the request into a GET without its body`
        : "not followed: too many redirects";
  return {
    ...providerFailure("invalid_request", `${head}, ${why}`, { status: refused.status, retryable: false }),
    redirectedTo: refused.to,
  };
}

/** How much of a body that is not an event stream is kept to describe it. */
const HEAD_CHARS = 2048;

/**
 * A 200 body without a single event (a JSON error under an event-stream
 * type, a plain-text "404 page not found"): what the server said, at once,
 * instead of five retries of a "cut" stream that never was one.
 */
function notAStream(url: string, head: string): ProviderFailure {
  if (head.trimStart().startsWith("{")) {
    try {
      const payload = JSON.parse(head) as { error?: unknown };
      if (payload && typeof payload === "object" && payload.error !== undefined && payload.error !== null)
        return classifyStreamError(payload);
    } catch {
      // cut or not JSON: quoted below
    }
  }
  const text = head.replace(/\s+/g, " ").trim();
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return providerFailure("invalid_request", `${url} answered with something that is not an event stream: "${shown}"`, {
    status: 200,
    retryable: false,
  });
}

function jsonInsteadOfStream(url: string, text: string): ProviderFailure {
  try {
    const payload = JSON.parse(text) as { error?: unknown };
    if (payload && typeof payload === "object" && payload.error !== undefined && payload.error !== null)
      return classifyStreamError(payload);
  } catch {
    // not JSON after all: described below
  }
  return providerFailure(
    "invalid_request",
    `${url} answered with JSON instead of an event stream (does the server support "stream": true?)`,
    { retryable: false },
  );
}

function htmlInsteadOfStream(url: string, html: string): ProviderFailure {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const text = (title ?? html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return providerFailure(
    "invalid_request",
    `${url} answered with a web page instead of an event stream${shown ? ` ("${shown}")` : ""}`,
    { status: 200, retryable: false },
  );
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
