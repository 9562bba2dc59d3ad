/** Host side: `ctx.http.fetch`, with the optional cap on a body's size that provider modules get. */
import { CtxError } from "./ctx-error.ts";

/** What `ctx.http.fetch` returns. */
interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/**
 * `ctx.http.fetch`: any status is a normal answer; only a failure to get
 * one (network error, timeout, bad arguments, a body over `limitBytes`)
 * raises.
 */
export async function httpFetch(
  url: unknown,
  opts: unknown,
  signal: AbortSignal,
  limitBytes?: number,
): Promise<HttpResponse> {
  if (typeof url !== "string" || url === "")
    throw new CtxError("ctx.http.fetch: url must be a non-empty string", { typeError: true });
  const o = (opts !== null && typeof opts === "object" ? opts : {}) as Record<string, unknown>;
  const method = o.method === undefined ? "GET" : o.method;
  if (typeof method !== "string") throw new CtxError("ctx.http.fetch: method must be a string", { typeError: true });
  if (o.body !== undefined && o.body !== null && typeof o.body !== "string") {
    throw new CtxError("ctx.http.fetch: body must be a string (serialize it yourself, e.g. JSON.stringify)", {
      typeError: true,
    });
  }
  const headers: Record<string, string> = {};
  if (o.headers !== undefined && o.headers !== null) {
    if (typeof o.headers !== "object")
      throw new CtxError("ctx.http.fetch: headers must be an object", { typeError: true });
    for (const [k, v] of Object.entries(o.headers as Record<string, unknown>)) headers[k] = String(v);
  }
  const timeoutMs = typeof o.timeout_ms === "number" && o.timeout_ms > 0 ? o.timeout_ms : undefined;
  const timeout = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
  const combined = timeout ? AbortSignal.any([signal, timeout]) : signal;
  const request = `${method.toUpperCase()} ${url}`;
  try {
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      body: typeof o.body === "string" ? o.body : undefined,
      signal: combined,
      redirect: "follow",
    });
    const bytes =
      limitBytes === undefined
        ? new Uint8Array(await response.arrayBuffer())
        : await readAtMost(response, limitBytes, request);
    const flat: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      const key = name.toLowerCase();
      // Set-Cookie arrives once per value: keep them all, as a flat map allows.
      flat[key] = flat[key] === undefined ? value : `${flat[key]}, ${value}`;
    });
    return { status: response.status, headers: flat, body: new TextDecoder().decode(bytes) };
  } catch (error) {
    if (error instanceof CtxError) throw error;
    if (timeout?.aborted && !signal.aborted)
      throw new CtxError(`ctx.http.fetch: ${request} timed out after ${timeoutMs} ms`);
    const message = error instanceof Error ? error.message : String(error);
    throw new CtxError(`ctx.http.fetch: ${request} failed: ${message}`);
  }
}

/**
 * The body, read chunk by chunk: once it passes `limit` bytes (as decoded,
 * what would be held in memory) the rest is not read, the connection is
 * dropped and the call fails.
 */
async function readAtMost(response: Response, limit: number, request: string): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new CtxError(`ctx.http.fetch: ${request}: the response body is larger than ${byteSize(limit)}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** A limit in words: "32 MiB", "64 KiB", "1000 bytes". */
function byteSize(bytes: number): string {
  const MIB = 1024 * 1024;
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
