/**
 * Host side: `ctx.cache` and `ctx.store` (go-current.md §7), one file per
 * name in `~/.rienda/cache/` and `~/.rienda/store/`, in the Go Rienda's
 * envelope `{"expires_at": "<RFC 3339, UTC>", "payload": "<text>"}` (a store
 * entry's `expires_at` is ""), so that both programs share the entries.
 * Files are written atomically with mode 0600, folders created 0700.
 *
 * A cache entry that has expired, or that is not an entry at all (damaged,
 * written by hand), reads as absent and its file is removed: the cache is
 * refilled by whoever asked. A store entry is never removed on read: a
 * damaged one fails the call, naming its file, so that nothing is lost.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../atomic-file.ts";
import { cacheEntryText, expiryText, livePayload } from "../../cache-entry.ts";
import { isRecord } from "../../values.ts";
import { CtxError } from "./ctx-error.ts";
import { fsReason, readRegularFile } from "./host-file.ts";

/** The latest expiry RFC 3339 can write with a four-digit year (9999-12-31T23:59:59Z). */
const LATEST_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

type Op = (...args: unknown[]) => unknown;

/** The bridge operations `cache.*` and `store.*` for one invocation, with `riendaDir` the absolute `~/.rienda`. */
export function createCacheHost(riendaDir: string): Record<string, Op> {
  const cache = join(riendaDir, "cache");
  const store = join(riendaDir, "store");
  return {
    "cache.set": (name, text, ttl) => {
      const path = entryPath("cache.set", cache, name);
      const payload = textOf("cache.set", text);
      const expiresAt = expiryOf(ttl);
      writeEntry("cache.set", path, { expires_at: expiresAt, payload });
      return expiresAt;
    },
    "cache.get": (name) => liveCacheEntry("cache.get", entryPath("cache.get", cache, name)),
    "cache.has": (name) => liveCacheEntry("cache.has", entryPath("cache.has", cache, name)) !== null,
    "store.set": (name, text, ttl) => {
      const path = entryPath("store.set", store, name);
      const payload = textOf("store.set", text);
      // The store never expires: a time to live is a mistake, not something to ignore quietly.
      if (ttl !== undefined && ttl !== null)
        throw new CtxError(
          "ctx.store.set: ttl_seconds must be omitted (store entries never expire; use ctx.cache for entries that do)",
        );
      writeEntry("store.set", path, { expires_at: "", payload });
    },
    "store.get": (name) => storeEntry("store.get", entryPath("store.get", store, name)),
    "store.has": (name) => storeEntry("store.has", entryPath("store.has", store, name)) !== null,
    "store.del": (name) => {
      const path = entryPath("store.del", store, name);
      try {
        rmSync(path, { force: true });
      } catch (error) {
        throw new CtxError(`ctx.store.del: cannot remove ${path}: ${fsReason(error)}`);
      }
    },
  };
}

/** The file of entry `name` in `dir`; a name that is not one plain file name is refused before anything is touched. */
function entryPath(member: string, dir: string, name: unknown): string {
  if (typeof name !== "string") throw new CtxError(`ctx.${member}: name must be a string`, { typeError: true });
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    throw new CtxError(
      `ctx.${member}: name ${JSON.stringify(name)} must be a single path segment (not empty, not "." or "..", no "/", "\\" or NUL)`,
    );
  }
  return join(dir, `${name}.json`);
}

function textOf(member: string, text: unknown): string {
  if (typeof text !== "string")
    throw new CtxError(`ctx.${member}: text must be a string (serialize it yourself, e.g. JSON.stringify)`, {
      typeError: true,
    });
  return text;
}

/**
 * The expiry of an entry set now for `ttl` seconds, as the Go program writes
 * it (UTC, whole seconds): rounded up, so an entry lives at least `ttl`.
 */
function expiryOf(ttl: unknown): string {
  if (ttl === undefined || ttl === null)
    throw new CtxError(
      "ctx.cache.set: ttl_seconds is required (a positive number of seconds the entry lives; ctx.store keeps entries for ever)",
      { typeError: true },
    );
  if (typeof ttl !== "number")
    throw new CtxError(`ctx.cache.set: ttl_seconds must be a number of seconds (got ${typeof ttl})`, {
      typeError: true,
    });
  if (!(ttl > 0) || !Number.isFinite(ttl))
    throw new CtxError(`ctx.cache.set: ttl_seconds must be a positive number of seconds (got ${ttl})`);
  const expiresMs = Math.ceil((Date.now() + ttl * 1000) / 1000) * 1000;
  if (expiresMs > LATEST_EXPIRY_MS)
    throw new CtxError(`ctx.cache.set: ttl_seconds ${ttl} is too large (the expiry would fall after the year 9999)`);
  return expiryText(expiresMs);
}

interface Envelope {
  expires_at: string;
  payload: string;
}

function writeEntry(member: string, path: string, entry: Envelope): void {
  try {
    writeFileAtomic(path, cacheEntryText(entry.expires_at, entry.payload), 0o600);
  } catch (error) {
    // A file where a folder should be fails the folder's creation with "already exists": say what it is.
    const code = (error as { code?: string } | null)?.code;
    throw new CtxError(
      `ctx.${member}: cannot write ${path}: ${code === "EEXIST" || code === "ENOTDIR" ? "a folder on its way is a file" : fsReason(error)}`,
    );
  }
}

/** The payload of a live cache entry, else null; an expired or damaged entry's file is removed. */
function liveCacheEntry(member: string, path: string): string | null {
  const entry = readEntry(member, path);
  if (entry === undefined) return null;
  const payload = livePayload(entry);
  if (payload !== null) return payload;
  try {
    rmSync(path, { force: true });
  } catch {
    // Left for the next set to replace; it still reads as absent.
  }
  return null;
}

/** The payload of a store entry, else null; a damaged entry fails the call and stays as it is. */
function storeEntry(member: string, path: string): string | null {
  const entry = readEntry(member, path);
  if (entry === undefined) return null;
  if (entry === null || typeof entry.payload !== "string") {
    throw new CtxError(
      `ctx.${member}: ${path} is not a store entry (expected {"expires_at": "", "payload": "<text>"}); fix or remove it, or replace it with ctx.store.set`,
    );
  }
  return entry.payload;
}

/** The file's fields: undefined when there is no file, null when it is not a JSON object. */
function readEntry(member: string, path: string): Partial<Record<keyof Envelope, unknown>> | null | undefined {
  let text: string;
  try {
    text = new TextDecoder().decode(readRegularFile(path));
  } catch (error) {
    if ((error as { code?: string } | null)?.code === "ENOENT") return undefined;
    throw new CtxError(`ctx.${member}: cannot read ${path}: ${fsReason(error)}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
