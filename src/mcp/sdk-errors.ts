/**
 * What the MCP SDK's errors say, read for messages: the HTTP status of a
 * Streamable HTTP error, and a message a user can act on.
 */
import { messageOf } from "../errors.ts";

/** The HTTP status of the SDK's StreamableHTTPError (known by its message: class names do not survive minifying). */
export function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return messageOf(error).startsWith("Streamable HTTP error: ") && typeof code === "number" ? code : undefined;
}

/** The SDK's message, with the HTTP status when the server answered with one. */
export function describeError(error: unknown): string {
  const full = messageOf(error);
  // The SDK's StreamableHTTPError, known by its message (class names do not survive minifying).
  const isHttp = full.startsWith("Streamable HTTP error: ");
  const message = full.replace(/^Streamable HTTP error: /, "");
  const code = (error as { code?: unknown } | null)?.code;
  if (isHttp && typeof code === "number" && code >= 100 && code <= 599) return `HTTP ${code}: ${message}`;
  if (error instanceof Error && error.message === "fetch failed" && error.cause instanceof Error)
    return `cannot connect: ${error.cause.message}`;
  return message;
}
