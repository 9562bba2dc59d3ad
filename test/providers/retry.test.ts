import { describe, expect, test } from "bun:test";
import { backoffDelay, DEFAULT_RETRY_POLICY, withRetries, type RetryDeps } from "../../src/providers/retry.ts";
import type { ProviderFailure, StreamEvent } from "../../src/providers/types.ts";

const done = (text: string): StreamEvent => ({
  type: "done",
  response: {
    message: { role: "assistant", blocks: text === "" ? [] : [{ type: "text", text }] },
    stopReason: "end_turn",
  },
});
const fail = (failure: Partial<ProviderFailure> = {}): StreamEvent => ({
  type: "error",
  failure: { kind: "server", message: "HTTP 503: busy", status: 503, retryable: true, ...failure },
});

/** Runs withRetries over scripted attempts, recording every wait instead of waiting. */
async function run(
  attempts: StreamEvent[][],
  options: { random?: number; signal?: AbortSignal; onSleep?: () => void } = {},
) {
  const sleeps: number[] = [];
  let started = 0;
  const deps: RetryDeps = {
    sleep: async (ms) => {
      sleeps.push(ms);
      options.onSleep?.();
    },
    random: () => options.random ?? 0.5,
    policy: DEFAULT_RETRY_POLICY,
  };
  const events: StreamEvent[] = [];
  const signal = options.signal ?? new AbortController().signal;
  for await (const event of withRetries(
    async function* () {
      const script = attempts[started++] ?? [];
      yield* script;
    },
    signal,
    deps,
  )) {
    events.push(event);
  }
  return { events, sleeps, started };
}

describe("backoff", () => {
  test("starts at 0.5 s and doubles up to 8 s, jittered by ±20 %", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 8 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, () => 0.5, policy))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, () => 0, policy))).toEqual([400, 800, 1600, 3200]);
    expect([1, 5].map((n) => backoffDelay(n, () => 1, policy))).toEqual([600, 9600]);
  });
});

describe("retries", () => {
  test("retries a transient failure, announcing it, and then passes the answer through", async () => {
    const { events, sleeps, started } = await run([
      [{ type: "text_delta", text: "partial" }, fail()],
      [{ type: "text_delta", text: "whole" }, done("whole")],
    ]);
    expect(started).toBe(2);
    expect(sleeps).toEqual([500]);
    expect(events).toEqual([
      { type: "text_delta", text: "partial" },
      {
        type: "retry",
        attempt: 1,
        delayMs: 500,
        failure: { kind: "server", message: "HTTP 503: busy", status: 503, retryable: true },
      },
      { type: "text_delta", text: "whole" },
      done("whole"),
    ]);
  });

  test("gives up after 5 attempts with the last failure and the backoff sequence 0.5, 1, 2, 4 s", async () => {
    const { events, sleeps, started } = await run([
      [fail()],
      [fail()],
      [fail()],
      [fail()],
      [fail({ message: "HTTP 500: last", status: 500 })],
      [done("never")],
    ]);
    expect(started).toBe(5);
    expect(sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(
      events.filter((event) => event.type === "retry").map((event) => (event.type === "retry" ? event.attempt : 0)),
    ).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)).toEqual({
      type: "error",
      failure: { kind: "server", status: 500, retryable: true, message: "HTTP 500: last (gave up after 5 attempts)" },
    });
  });

  test("fails at once on a failure that is not retryable", async () => {
    const { events, sleeps, started } = await run([
      [fail({ kind: "invalid_request", status: 400, retryable: false, message: "HTTP 400: bad tool schema" })],
      [done("never")],
    ]);
    expect(started).toBe(1);
    expect(sleeps).toEqual([]);
    expect(events).toEqual([
      {
        type: "error",
        failure: { kind: "invalid_request", status: 400, retryable: false, message: "HTTP 400: bad tool schema" },
      },
    ]);
  });

  test("retries empty answers and reports one when they persist", async () => {
    const recovered = await run([[done("")], [done("  ")], [done("finally")]]);
    expect(recovered.started).toBe(3);
    expect(recovered.events.at(-1)).toEqual(done("finally"));
    const persistent = await run([[done("")], [done("")], [done("")], [done("")], [done("")]]);
    expect(persistent.events.at(-1)).toEqual({
      type: "error",
      failure: {
        kind: "empty_answer",
        retryable: true,
        message: "the model returned an empty answer (gave up after 5 attempts)",
      },
    });
  });

  test("treats an attempt that ends without done or error as cut short, and retries it", async () => {
    const { events, started } = await run([[{ type: "text_delta", text: "x" }], [done("ok")]]);
    expect(started).toBe(2);
    expect(events[1]).toMatchObject({ type: "retry", failure: { kind: "truncated_stream" } });
  });

  test("waits what retry-after asks when longer than the backoff, and gives up when it asks more than a minute", async () => {
    const honoured = await run([[fail({ kind: "rate_limit", status: 429, retryAfterMs: 3000 })], [done("ok")]]);
    expect(honoured.sleeps).toEqual([3000]);
    const shorter = await run([[fail({ kind: "rate_limit", status: 429, retryAfterMs: 10 })], [done("ok")]]);
    expect(shorter.sleeps).toEqual([500]);
    const tooLong = await run([
      [fail({ kind: "rate_limit", status: 429, message: "HTTP 429: quota", retryAfterMs: 3_600_000 })],
      [done("never")],
    ]);
    expect(tooLong.started).toBe(1);
    expect(tooLong.events).toEqual([
      {
        type: "error",
        failure: {
          kind: "rate_limit",
          status: 429,
          retryable: false,
          retryAfterMs: 3_600_000,
          message: "HTTP 429: quota (the provider asks to wait 3600s before retrying)",
        },
      },
    ]);
  });

  test("stops with an interrupted failure when aborted during the wait", async () => {
    const controller = new AbortController();
    const { events, started } = await run([[fail()], [done("never")]], {
      signal: controller.signal,
      onSleep: () => controller.abort(),
    });
    expect(started).toBe(1);
    expect(events.at(-1)).toEqual({
      type: "error",
      failure: { kind: "aborted", retryable: false, message: "the model request was interrupted" },
    });
  });
});
