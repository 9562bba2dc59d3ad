/**
 * A 5xx a server sends for a request it can never serve: sending it again
 * gets the same answer, so it is not retried (five attempts of llama.cpp's
 * `image input is not supported` cost 7-8 s for nothing). What a server
 * says decides, HTTP status or in-stream error alike: llama.cpp answers
 * HTTP 500 "Failed to parse tool call arguments as JSON", "tools param
 * requires --jinja flag" (a server started with --no-jinja), "image input
 * is not supported - hint: ... mmproj" (an image to a text-only model), and
 * "Unexpected empty grammar stack after accepting piece" (the model wrote
 * what the request's grammar forbids: a call of a tool it was not offered).
 */

/** Phrases of a 5xx that says the request itself cannot be served. */
const UNSERVABLE_HINTS = [
  "failed to parse",
  "could not parse",
  "cannot parse",
  "unable to parse",
  "invalid json",
  "malformed",
  "requires --jinja",
  "is not supported",
  "not supported by",
  "unsupported",
  "mmproj",
  "grammar stack",
];

/** Whether a server error with this status and message is about the request, not the server's state. */
export function isUnservableRequest(status: number, message: string): boolean {
  const text = message.toLowerCase();
  return status >= 500 && UNSERVABLE_HINTS.some((hint) => text.includes(hint));
}
