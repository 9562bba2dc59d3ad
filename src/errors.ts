/**
 * Errors a user may see. Every failure that reaches the command line is a
 * RiendaError: a stable code for scripts and a message written for people,
 * naming the file, key or name at fault. Stacks are never shown to users.
 */

/** Machine-readable error categories; the CLI maps none of them to a stack trace. */
export type ErrorCode =
  | "config"
  | "agent"
  | "skill"
  | "extension"
  | "usage"
  | "provider"
  | "session"
  | "workdir"
  | "interrupted"
  | "internal";

/** An error meant for the user: the message is printed as `rienda: <message>`. */
export class RiendaError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RiendaError";
    this.code = code;
  }
}

/** True when `value` is a RiendaError (also across realms, by shape). */
export function isRiendaError(value: unknown): value is RiendaError {
  return value instanceof RiendaError;
}

/** The message of any thrown value, without stack or class prefix. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** What a user is told about a failure: a RiendaError's own message, anything else marked as an internal error. */
export function userMessage(error: unknown): string {
  return isRiendaError(error) ? error.message : `internal error: ${messageOf(error)}`;
}
