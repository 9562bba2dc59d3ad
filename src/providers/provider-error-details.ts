/** Reads message, code and type out of a provider's error payload, whatever its vendor shape. */
import { isRecord } from "../values.ts";

/** The parts of a provider's error payload that classification reads. */
export interface ProviderErrorDetails {
  message?: string;
  type?: string;
  code?: string;
}

/**
 * Pulls message, type and code out of the error payload shapes we meet:
 * OpenAI `{error: {message, type, code}}`, Anthropic `{type: "error", error:
 * {type, message}}`, a bare `{error: "text"}`, `{message}` or `{detail}`
 * (FastAPI-style local servers), and the Responses `error` event
 * `{code, message}`.
 */
export function providerErrorDetails(payload: unknown): ProviderErrorDetails {
  if (!isRecord(payload)) return {};
  const inner = payload.error;
  if (isRecord(inner)) return pick(inner);
  if (typeof inner === "string") return { message: inner };
  const own = pick(payload);
  if (own.message === undefined && typeof payload.detail === "string") own.message = payload.detail;
  if (own.type === "error") delete own.type;
  return own;
}

function pick(record: Record<string, unknown>): ProviderErrorDetails {
  const details: ProviderErrorDetails = {};
  if (typeof record.message === "string" && record.message !== "") details.message = record.message;
  if (typeof record.type === "string" && record.type !== "") details.type = record.type;
  if (typeof record.code === "string" && record.code !== "") details.code = record.code;
  else if (typeof record.code === "number") details.code = String(record.code);
  return details;
}
