/** The headers of one model request: the protocol's, config.yaml's and the session header. */
import type { ModelRequest } from "./types.ts";

/**
 * The headers of one request, lowest precedence first: the protocol's own
 * (content type, auth, version), then the provider's static `headers` from
 * config (so a user can override auth for an unusual gateway), then the
 * session header, which always carries this run's session id. Names are
 * compared case-insensitively; the last writer wins.
 */
export function requestHeaders(request: ModelRequest, protocolHeaders: Record<string, string>): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  const put = (name: string, value: string) => merged.set(name.toLowerCase(), [name, value]);
  put("content-type", "application/json");
  put("accept", "text/event-stream");
  for (const [name, value] of Object.entries(protocolHeaders)) put(name, value);
  for (const [name, value] of Object.entries(request.model.headers ?? {})) put(name, value);
  if (request.model.sessionHeader) put(request.model.sessionHeader, request.sessionId);
  return Object.fromEntries([...merged.values()]);
}

/** `base` + `path` with exactly one slash between them; a query of `base` (`?api-version=…`) stays at the end. */
export function joinUrl(base: string, path: string): string {
  const { head, query } = splitQuery(base);
  return `${head.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}${query}`;
}

/** A URL cut before its `?` or `#`: the part paths are appended to, and the rest. */
export function splitQuery(url: string): { head: string; query: string } {
  const at = url.search(/[?#]/);
  return at === -1 ? { head: url, query: "" } : { head: url.slice(0, at), query: url.slice(at) };
}
