/** Classifies a failed HTTP response into a ProviderFailure: kind, retryable, and the vendor's own message. */
import { providerErrorDetails, type ProviderErrorDetails } from "./provider-error-details.ts";
import { providerFailure } from "./provider-failure.ts";
import { isUnservableRequest } from "./unservable-request.ts";
import type { ProviderErrorKind, ProviderFailure } from "./types.ts";

/** Error codes and types that name the kind better than the status does (OpenAI, Anthropic, OpenRouter). */
const KIND_BY_CODE: Readonly<Record<string, ProviderErrorKind>> = {
  context_length_exceeded: "context_length",
  invalid_api_key: "authentication",
  authentication_error: "authentication",
  permission_error: "authentication",
  rate_limit_error: "rate_limit",
  rate_limit_exceeded: "rate_limit",
  overloaded_error: "overloaded",
  api_error: "server",
  server_error: "server",
  timeout_error: "timeout",
};

/** Phrases with which providers without a dedicated code report an oversized prompt. */
const CONTEXT_LENGTH_HINTS = [
  "context length",
  "context_length",
  "context window",
  "context size",
  "prompt is too long",
  "maximum context",
  "too many tokens",
];

/** How much of a non-JSON error body is worth showing. */
const MAX_BODY_EXCERPT = 500;

/**
 * Classifies a failed HTTP response. Retryable exactly on 408, 409, 429 and
 * 5xx (contract §7), but for a 5xx that says the request cannot be served
 * (unservable-request.ts); the
 * message is `HTTP <status>: <the provider's own message>` so the user reads
 * what the vendor said.
 */
export function classifyHttpError(status: number, bodyText: string, retryAfterMs?: number): ProviderFailure {
  const details = detailsOf(bodyText);
  const text = details.message ?? (excerpt(bodyText) || statusText(status));
  const malformed = isUnservableRequest(status, text);
  const retryable = !malformed && (status === 408 || status === 409 || status === 429 || status >= 500);
  const extra: { status: number; retryable: boolean; retryAfterMs?: number } = { status, retryable };
  if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  return providerFailure(malformed ? "invalid_request" : kindOf(status, details), `HTTP ${status}: ${text}`, extra);
}

function kindOf(status: number, details: ProviderErrorDetails): ProviderErrorKind {
  // The status decides authentication: a proxy's 401 or 403 may carry any type (`server_error`,
  // `api_error`), and the user still needs to hear about the key.
  if (status === 401 || status === 403) return "authentication";
  const byCode = (details.code && KIND_BY_CODE[details.code]) || undefined;
  if (byCode) return byCode;
  const message = (details.message ?? "").toLowerCase();
  if ((status === 400 || status === 413) && CONTEXT_LENGTH_HINTS.some((hint) => message.includes(hint)))
    return "context_length";
  const byType = (details.type && KIND_BY_CODE[details.type]) || undefined;
  if (byType) return byType;
  if (status === 408) return "timeout";
  if (status === 429) return "rate_limit";
  if (status === 503 || status === 529) return "overloaded";
  if (status >= 500) return "server";
  if (status === 409) return "other";
  if (status >= 400) return "invalid_request";
  return "other";
}

function detailsOf(bodyText: string): ProviderErrorDetails {
  try {
    return providerErrorDetails(JSON.parse(bodyText) as unknown);
  } catch {
    return {};
  }
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_BODY_EXCERPT ? `${trimmed.slice(0, MAX_BODY_EXCERPT)}…` : trimmed;
}

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? "request failed";
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  408: "request timeout",
  409: "conflict",
  413: "request too large",
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
  529: "overloaded",
};
