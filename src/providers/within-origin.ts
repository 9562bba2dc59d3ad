/**
 * A model request follows a redirect only within its own origin. fetch's
 * default would follow any `Location` and, on another host, send there the
 * `x-api-key`, every configured header and (on 307/308) the whole
 * conversation: only `Authorization` is dropped. The MCP client keeps the
 * same rule (the SDK's `redirectPolicy: 'same-origin'`), and so the two
 * agree on what "within the origin" means.
 */
import type { FetchLike } from "./types.ts";

/** How many redirects within the origin one request may take. */
const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A redirect that was not followed: where the request went, the status, and where it pointed. */
export interface RefusedRedirect {
  from: string;
  status: number;
  to: string;
  /** `origin`: another scheme, host or port; `method`: 301/302/303 would turn the POST into a GET; `count`: too many hops. */
  reason: "origin" | "method" | "count";
}

/** The answer, or the redirect that was refused instead of being followed. */
export type WithinOriginOutcome = { response: Response } | { refused: RefusedRedirect };

/**
 * Sends `init` to `url` with `redirect: "manual"` and follows a 307 or 308
 * only to the same scheme, host and port (or the https form of an http
 * address on default ports, as the MCP SDK allows); anything else that
 * redirects comes back as `refused`, its body released.
 */
export async function fetchWithinOrigin(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
): Promise<WithinOriginOutcome> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(current, { ...init, redirect: "manual" });
    const target = redirectTarget(response, current);
    if (!target) return { response };
    await response.body?.cancel().catch(() => undefined);
    const refused = (reason: RefusedRedirect["reason"]): WithinOriginOutcome => ({
      refused: { from: current, status: response.status, to: target.toString(), reason },
    });
    if (!isWithinOrigin(new URL(current), target)) return refused("origin");
    if (response.status !== 307 && response.status !== 308) return refused("method");
    if (hops === MAX_REDIRECTS) return refused("count");
    current = target.toString();
  }
}

/** Whether `to` has the scheme, host and port of `from` (no new user info), or is its https form, both on default ports. */
export function isWithinOrigin(from: URL, to: URL): boolean {
  if ((to.username !== "" || to.password !== "") && (to.username !== from.username || to.password !== from.password))
    return false;
  if (from.protocol === to.protocol && from.hostname === to.hostname && from.port === to.port) return true;
  return (
    from.hostname === to.hostname &&
    from.protocol === "http:" &&
    from.port === "" &&
    to.protocol === "https:" &&
    to.port === ""
  );
}

function redirectTarget(response: Response, requestUrl: string): URL | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (!location) return undefined;
  try {
    return new URL(location, requestUrl);
  } catch {
    return undefined;
  }
}
