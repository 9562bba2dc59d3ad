/** Host side: `ctx.http.fetch`. */
import { CtxError } from "./ctx-error.ts";

/** What `ctx.http.fetch` returns. */
export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/**
 * `ctx.http.fetch`: any status is a normal answer; only a failure to get
 * one (network error, timeout, bad arguments) raises.
 */
export async function httpFetch(url: unknown, opts: unknown, signal: AbortSignal): Promise<HttpResponse> {
  if (typeof url !== "string" || url === "") throw new CtxError("ctx.http.fetch: url must be a non-empty string", { typeError: true });
  const o = (opts !== null && typeof opts === "object" ? opts : {}) as Record<string, unknown>;
  const method = o.method === undefined ? "GET" : o.method;
  if (typeof method !== "string") throw new CtxError("ctx.http.fetch: method must be a string", { typeError: true });
  if (o.body !== undefined && o.body !== null && typeof o.body !== "string") {
    throw new CtxError("ctx.http.fetch: body must be a string (serialize it yourself, e.g. JSON.stringify)", { typeError: true });
  }
  const headers: Record<string, string> = {};
  if (o.headers !== undefined && o.headers !== null) {
    if (typeof o.headers !== "object") throw new CtxError("ctx.http.fetch: headers must be an object", { typeError: true });
    for (const [k, v] of Object.entries(o.headers as Record<string, unknown>)) headers[k] = String(v);
  }
  const timeoutMs = typeof o.timeout_ms === "number" && o.timeout_ms > 0 ? o.timeout_ms : undefined;
  const timeout = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
  const combined = timeout ? AbortSignal.any([signal, timeout]) : signal;
  try {
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      body: typeof o.body === "string" ? o.body : undefined,
      signal: combined,
      redirect: "follow",
    });
    const bytes = await response.arrayBuffer();
    const flat: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      const key = name.toLowerCase();
      // Set-Cookie arrives once per value: keep them all, as a flat map allows.
      flat[key] = flat[key] === undefined ? value : `${flat[key]}, ${value}`;
    });
    return { status: response.status, headers: flat, body: new TextDecoder().decode(bytes) };
  } catch (error) {
    if (timeout?.aborted && !signal.aborted) throw new CtxError(`ctx.http.fetch: ${method.toUpperCase()} ${url} timed out after ${timeoutMs} ms`);
    const message = error instanceof Error ? error.message : String(error);
    throw new CtxError(`ctx.http.fetch: ${method.toUpperCase()} ${url} failed: ${message}`);
  }
}
