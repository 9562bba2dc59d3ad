/** Classifies an error a provider sends inside a stream that already started, by its vendor type or code. */
import { providerErrorDetails } from "./provider-error-details.ts";
import { providerFailure } from "./provider-failure.ts";
import { isUnservableRequest } from "./unservable-request.ts";
import type { ProviderErrorKind, ProviderFailure } from "./types.ts";

/**
 * Error types and codes a provider may send inside a stream that has
 * already begun (Anthropic `error` event, Responses `error` /
 * `response.failed`, an OpenRouter-style `{error}` chunk on chat).
 */
const STREAM_KINDS: Readonly<Record<string, ProviderErrorKind>> = {
  overloaded_error: "overloaded",
  api_error: "server",
  server_error: "server",
  rate_limit_error: "rate_limit",
  rate_limit_exceeded: "rate_limit",
  timeout_error: "timeout",
  context_length_exceeded: "context_length",
  invalid_request_error: "invalid_request",
  invalid_prompt: "invalid_request",
  authentication_error: "authentication",
  permission_error: "authentication",
};

/**
 * Classifies an error the provider reported mid-stream. Transient kinds
 * (overloaded, server, rate limit, timeout) and numeric 408/409/429/5xx codes
 * are retried, but for one that says the request cannot be served; anything
 * unknown is not.
 */
export function classifyStreamError(payload: unknown): ProviderFailure {
  const details = providerErrorDetails(payload);
  const label = details.code ?? details.type;
  const numeric = label !== undefined && /^\d{3}$/.test(label) ? Number(label) : undefined;
  let kind: ProviderErrorKind =
    (label && STREAM_KINDS[label]) || (details.type && STREAM_KINDS[details.type]) || "other";
  if (kind === "other" && numeric !== undefined) {
    if (numeric === 429) kind = "rate_limit";
    else if (numeric >= 500) kind = "server";
  }
  const message = details.message ?? "the provider reported an error";
  // llama.cpp reports a request it cannot serve in the stream too, as code 500 (unservable-request.ts).
  if (isUnservableRequest(numeric ?? (kind === "server" ? 500 : 0), message)) kind = "invalid_request";
  const retryable =
    kind === "overloaded" ||
    kind === "server" ||
    kind === "rate_limit" ||
    kind === "timeout" ||
    (kind !== "invalid_request" &&
      numeric !== undefined &&
      (numeric === 408 || numeric === 409 || numeric === 429 || numeric >= 500));
  return providerFailure(kind, label ? `provider error (${label}): ${message}` : `provider error: ${message}`, {
    retryable,
  });
}
