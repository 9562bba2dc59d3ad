/**
 * Checks `Authorization: Bearer <token>` against the server's token. The
 * comparison takes the same time whatever the token sent: both sides are
 * hashed first (equal lengths for timingSafeEqual, and the length of the
 * real token is not revealed either).
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** `missing`: no Bearer credentials (none, or another scheme); `invalid`: a Bearer token that is not the one. */
export type BearerVerdict = "ok" | "missing" | "invalid";

/** A checker of Authorization headers for `token`. */
export function bearerChecker(token: string): (header: string | string[] | undefined) => BearerVerdict {
  const expected = digest(token);
  return (header) => {
    // Several Authorization headers are not one credential: refused as invalid.
    if (Array.isArray(header)) return header.length === 0 ? "missing" : "invalid";
    if (header === undefined || header.trim() === "") return "missing";
    // RFC 7235: the scheme is case-insensitive; RFC 6750: one space-separated token.
    if (!/^Bearer(?: |$)/i.test(header.trim())) return "missing";
    const match = /^Bearer +([^\s]+) *$/i.exec(header);
    if (!match) return "invalid";
    return timingSafeEqual(digest(match[1]!), expected) ? "ok" : "invalid";
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
