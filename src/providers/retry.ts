/** The retry wrapper of contract §7 around one model request: backoff, Retry-After, and the notice before each new attempt. */
import { abortedFailure, providerFailure } from "./provider-failure.ts";
import type { AssistantResponse, ProviderFailure, StreamEvent } from "./types.ts";

/** The retry schedule of contract §7. */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** Wait before the first retry; doubles for each further one. */
  baseDelayMs: number;
  /** Ceiling of the doubling. */
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the failure is final. */
  maxRetryAfterMs: number;
}

/** 5 attempts, 0.5 s doubling up to 8 s; a provider asking for more than a minute is not waited for. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** What retrying needs from the outside; injectable so tests neither wait nor guess. */
export interface RetryDeps {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
  policy: RetryPolicy;
}

/**
 * The wait before retry number `retry` (1 = after the first failure):
 * `baseDelayMs * 2^(retry-1)`, capped at `maxDelayMs`, then jittered by
 * ±20 % so many clients failing together do not return together.
 */
export function backoffDelay(retry: number, random: () => number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * True when a response carries nothing to act on: no visible text and no
 * tool call. An answer cut by `max_tokens` is not empty even then: a model
 * that spent the whole budget thinking would do the same again, so asking
 * again only pays for it five times. Nor is a refusal.
 */
function isEmptyAnswer(response: AssistantResponse): boolean {
  if (response.stopReason === "max_tokens" && response.message.blocks.length > 0) return false;
  // A refusal is an answer: asked again, the model (or the filter) refuses again.
  if (response.stopReason === "refusal") return false;
  return !response.message.blocks.some(
    (block) => block.type === "tool_call" || (block.type === "text" && block.text.trim() !== ""),
  );
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the attempts run out
 * (contract §7). Retried: failures marked retryable (408/409/429/5xx,
 * network errors, streams cut short) and empty answers. Before each retry
 * a `retry` event tells consumers to discard that attempt's partial
 * output. The wait is the backoff, or the provider's `retry-after` when
 * longer (up to `maxRetryAfterMs`). Never throws; ends with exactly one
 * `done` or `error`.
 */
export async function* withRetries(
  attempt: (attemptNumber: number) => AsyncIterable<StreamEvent>,
  signal: AbortSignal,
  deps: RetryDeps,
): AsyncGenerator<StreamEvent> {
  const { policy } = deps;
  for (let number = 1; ; number++) {
    let failure: ProviderFailure | undefined;
    try {
      for await (const event of attempt(number)) {
        if (event.type === "done") {
          if (!isEmptyAnswer(event.response)) {
            yield event;
            return;
          }
          failure = providerFailure("empty_answer", "the model returned an empty answer");
          break;
        }
        if (event.type === "error") {
          failure = event.failure;
          break;
        }
        if (event.type !== "retry") yield event;
      }
    } catch (error) {
      // Adapters never throw; this guards the contract if one does.
      failure = providerFailure("other", error instanceof Error ? error.message : String(error), { retryable: false });
    }
    failure ??= providerFailure("truncated_stream", "the model stream ended without a result");
    if (signal.aborted) {
      yield { type: "error", failure: abortedFailure() };
      return;
    }
    if (!failure.retryable) {
      yield { type: "error", failure };
      return;
    }
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) {
      const seconds = Math.ceil(failure.retryAfterMs / 1000);
      yield {
        type: "error",
        failure: {
          ...failure,
          retryable: false,
          message: `${failure.message} (the provider asks to wait ${seconds}s before retrying)`,
        },
      };
      return;
    }
    if (number >= Math.min(policy.maxAttempts, failure.maxAttempts ?? Infinity)) {
      // One attempt in all is `retries: 0`, which asked for no retry: nothing was given up.
      const ending = number === 1 ? "not retried" : `gave up after ${number} attempts`;
      yield { type: "error", failure: { ...failure, message: `${failure.message} (${ending})` } };
      return;
    }
    const delayMs = Math.max(backoffDelay(number, deps.random, policy), failure.retryAfterMs ?? 0);
    yield { type: "retry", attempt: number, delayMs, failure };
    try {
      await deps.sleep(delayMs, signal);
    } catch {
      // sleep rejects only when aborted
    }
    if (signal.aborted) {
      yield { type: "error", failure: abortedFailure() };
      return;
    }
  }
}

/** A timer that resolves after `ms`, or rejects at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error("aborted"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
