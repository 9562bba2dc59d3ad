/**
 * A fork: a new session continuing another one from one of its entries. The
 * branch that leads there is copied into the new file entry by entry (ids,
 * parents and times kept, so an entry id names the same message in both),
 * with the agent, model and thinking switches on it (or, in the older
 * shape, beside it), the interruptions that hang from it and the titles;
 * other branches are not copied. The header names the origin (`forkedFrom`,
 * `forkedAt`). The original is only read, never written, so
 * it may be open in another process meanwhile.
 */
import { createSession } from "./create-session.ts";
import type { SessionFile } from "./session-file.ts";
import type { IdGenerator, SessionEntry, SessionHeader } from "./types.ts";

/** What a fork needs: the session read (header and entries in file order), where it continues, and where the fork is filed. */
export interface ForkOptions {
  home: string;
  workdir: string;
  from: { header: SessionHeader; entries: readonly SessionEntry[] };
  /** The entry the fork continues after (null: before the first message). */
  at: string | null;
  /** Kept in memory only (--no-session continuing a session). */
  memory?: boolean;
  ids?: IdGenerator;
  now?: () => number;
}

/** Creates the fork, open (its lock held) with the branch copied; its active leaf is `at`. */
export function forkSession(options: ForkOptions): SessionFile {
  const { header, entries } = options.from;
  const onPath = pathTo(entries, options.at);
  const fork = createSession({
    home: options.home,
    workdir: options.workdir,
    agent: header.agent,
    model: header.model,
    forkOf: { sessionId: header.id, entryId: options.at },
    ...(options.memory ? { memory: true } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  try {
    for (const entry of entries) {
      if (copied(entry, onPath)) fork.appendCopy(entry);
    }
    if (fork.leafId !== options.at) fork.moveLeaf(options.at);
  } catch (error) {
    fork.closeDiscardingUnused();
    throw error;
  }
  return fork;
}

function copied(entry: SessionEntry, onPath: Set<string>): boolean {
  switch (entry.kind) {
    case "message":
    case "compaction":
      return onPath.has(entry.id);
    case "thinking":
      return onPath.has(entry.id);
    case "agent":
    case "model":
      // One beside the branch goes with the entry it hangs from; one on the branch is part of the path.
      return entry.beside
        ? entry.parentId === null || onPath.has(entry.parentId) || onPath.has(entry.id)
        : onPath.has(entry.id);
    case "interruption":
      return entry.parentId !== null && onPath.has(entry.parentId);
    case "title":
      return true;
    case "leaf":
      return false;
  }
}

/** Ids of the entries from the root to `at`: messages, compactions and the switches on the branch. */
function pathTo(entries: readonly SessionEntry[], at: string | null): Set<string> {
  const parents = new Map<string, string | null>();
  for (const e of entries) if ("id" in e && e.id !== "" && !parents.has(e.id)) parents.set(e.id, e.parentId);
  const path = new Set<string>();
  for (let id = at; id !== null && !path.has(id); id = parents.get(id) ?? null) {
    if (!parents.has(id)) break;
    path.add(id);
  }
  return path;
}
