/** Builds ProviderFailure values: which kinds are retryable, and the truncated-stream failure. */
import type { ProviderErrorKind, ProviderFailure } from "./types.ts";

/** Kinds worth another attempt (contract §7), whatever the protocol. */
const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  "network",
  "timeout",
  "rate_limit",
  "overloaded",
  "server",
  "truncated_stream",
  "empty_answer",
]);

/** Builds a failure value; `retryable` follows the kind unless the caller knows better (an HTTP status). */
export function providerFailure(
  kind: ProviderErrorKind,
  message: string,
  extra: { status?: number; retryable?: boolean; retryAfterMs?: number; maxAttempts?: number } = {},
): ProviderFailure {
  const failure: ProviderFailure = { kind, message, retryable: extra.retryable ?? RETRYABLE_KINDS.has(kind) };
  if (extra.status !== undefined) failure.status = extra.status;
  if (extra.retryAfterMs !== undefined) failure.retryAfterMs = extra.retryAfterMs;
  if (extra.maxAttempts !== undefined) failure.maxAttempts = extra.maxAttempts;
  return failure;
}

/** The failure of a request the caller cancelled: never retried. */
export function abortedFailure(): ProviderFailure {
  return providerFailure("aborted", "the model request was interrupted", { retryable: false });
}

/** The failure of a stream that stopped before the provider's end-of-response marker. */
export function truncatedFailure(): ProviderFailure {
  return providerFailure("truncated_stream", "the response stream ended before the provider finished it");
}
