/**
 * The Go Rienda's cache file (go-current.md §2): `{"expires_at": "<RFC 3339,
 * UTC>", "payload": "<text>"}`, written by `ctx.cache` for extensions and by
 * Rienda itself for what it keeps a while (a local server's facts). One
 * leaf so that both write the same bytes and read an entry's life alike.
 */
import { sortedJson } from "./atomic-file.ts";
import { isRecord } from "./values.ts";

/** RFC 3339 as the Go program's time.RFC3339 reads it (fractional seconds allowed). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An instant as the Go program writes `expires_at`: UTC, whole seconds (the milliseconds dropped). */
export function expiryText(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The file's text for `payload` expiring at `expiresAt` ("" for a store entry, which never expires). */
export function cacheEntryText(expiresAt: string, payload: string): string {
  return sortedJson({ expires_at: expiresAt, payload });
}

/** The payload of a parsed cache file while it lives at `now`; null when it has expired or is not an entry. */
export function livePayload(entry: unknown, now = Date.now()): string | null {
  if (!isRecord(entry) || typeof entry.payload !== "string" || typeof entry.expires_at !== "string") return null;
  return RFC3339.test(entry.expires_at) && now <= Date.parse(entry.expires_at) ? entry.payload : null;
}
