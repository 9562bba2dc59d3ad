import { parseJsonWithin } from "../values.ts";

/**
 * Decodes the arguments text a model streamed for a tool call. Empty text
 * means no arguments (`{}`); text that is not JSON, or nests deeper than
 * MAX_JSON_DEPTH, is kept as the raw string so the engine can show the
 * model its own mistake in an error result.
 */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return parseJsonWithin(raw);
  } catch {
    return raw;
  }
}

/** Encodes canonical tool-call arguments as the JSON text chat-style protocols expect; a raw string goes back unchanged. */
export function encodeToolArguments(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {});
}
