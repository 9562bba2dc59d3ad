/**
 * What a local server said about a model (its context window, its input
 * kinds), kept for a while in `~/.rienda/cache/` so that a fleet of runs
 * asks the server once, not 4-5 requests per process (docs/providers.md,
 * "The context window, asked of the server"). The entry is a `ctx.cache`
 * file (go-current.md §2): `{"expires_at": "<RFC 3339, UTC>", "payload":
 * "<text>"}`, the payload the facts as JSON. An expired or unreadable
 * entry reads as none (an expired one is removed); a write that fails
 * only means the next process asks again.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../atomic-file.ts";
import { cacheEntryText, expiryText, livePayload } from "../cache-entry.ts";
import type { ServerFacts } from "./server-facts.ts";

/** How long the facts are kept: a server restarted with another `-c` is seen again within this. */
export const SERVER_FACTS_TTL_MS = 10 * 60_000;

/** The facts, and when the server was asked. */
export type KeptFacts = ServerFacts & { askedAt: string };

/** The cache file of one server and model (a name of one path segment, as ctx.cache names are). */
function entryPath(home: string, baseUrl: string, wireId: string): string {
  const digest = createHash("sha256").update(`${baseUrl}\n${wireId}`).digest("hex").slice(0, 16);
  return join(home, ".rienda", "cache", `local-server-${digest}.json`);
}

/** The facts kept for this server and model, while they are fresh. */
export function keptFacts(home: string, baseUrl: string, wireId: string, now = Date.now()): KeptFacts | undefined {
  const path = entryPath(home, baseUrl, wireId);
  let entry: unknown;
  try {
    entry = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const payload = livePayload(entry, now);
  if (payload === null) {
    rmSync(path, { force: true });
    return undefined;
  }
  try {
    const facts = JSON.parse(payload) as KeptFacts & { baseUrl?: unknown; wireId?: unknown };
    // The name is a digest: the payload says whose facts these are.
    return facts.baseUrl === baseUrl && facts.wireId === wireId
      ? { ...pick(facts), askedAt: String(facts.askedAt) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps what the server said (nothing, when it said nothing: it may still be loading). */
export function keepFacts(
  home: string,
  baseUrl: string,
  wireId: string,
  facts: ServerFacts,
  now = Date.now(),
): KeptFacts {
  const kept: KeptFacts = { ...facts, askedAt: new Date(now).toISOString() };
  if (!facts.window && !facts.input) return kept;
  const payload = JSON.stringify({ baseUrl, wireId, ...kept });
  try {
    writeFileAtomic(entryPath(home, baseUrl, wireId), cacheEntryText(expiryText(now + SERVER_FACTS_TTL_MS), payload));
  } catch {
    // A cache that cannot be written costs the next process one more probe, nothing else.
  }
  return kept;
}

function pick(facts: ServerFacts): ServerFacts {
  return { ...(facts.window ? { window: facts.window } : {}), ...(facts.input ? { input: facts.input } : {}) };
}
