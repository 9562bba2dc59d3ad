/**
 * Deleting sessions: `sessions rm ID` and `sessions prune`. A session is
 * removed only under its lock, so one that another process holds open (a
 * run, a chat, an rpc) is never touched: that is an error for `rm` and a
 * session skipped, and named, for `prune`, whose age check is made again
 * under the lock. The file goes first, then the lock, so no other process
 * can open the session in between.
 */
import { readFileSync, unlinkSync } from "node:fs";
import { messageOf, RiendaError } from "../errors.ts";
import { listSessions } from "./list-sessions.ts";
import { findSessionFile } from "./open-session.ts";
import { scanSession } from "./scan-session.ts";
import { lockSession } from "./session-lock.ts";

/** Removes session `id` (found as openSession finds it); returns its path. Held elsewhere → RiendaError naming the pid. */
export function removeSession(options: { home: string; id: string; workdir?: string }): string {
  const path = findSessionFile(options.home, options.id, options.workdir);
  removeLocked(path, options.id);
  return path;
}

/** What `pruneSessions` did. */
export interface PruneResult {
  removed: { id: string; path: string }[];
  /** Sessions old enough but held by another process (or that could not be removed), with why. */
  skipped: { id: string; reason: string }[];
}

/**
 * Removes the workspace's sessions whose last entry is older than
 * `olderThanMs` (subagents' sessions included); with `dryRun` only says
 * which. Never one held by another process.
 */
export function pruneSessions(options: {
  home: string;
  workdir: string;
  olderThanMs: number;
  now?: number;
  dryRun?: boolean;
}): PruneResult {
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  const result: PruneResult = { removed: [], skipped: [] };
  for (const s of listSessions({ home: options.home, workdir: options.workdir })) {
    if (!olderThan(s.updatedAt, cutoff)) continue;
    try {
      if (pruneIfStillOld(s.path, s.id, s.updatedAt, cutoff, options.dryRun === true))
        result.removed.push({ id: s.id, path: s.path });
    } catch (error) {
      result.skipped.push({ id: s.id, reason: messageOf(error) });
    }
  }
  return result;
}

/**
 * Under the session's lock, reads its age again from the file and removes
 * it only if it is still old: a session continued between the listing and
 * the lock is kept. A dry run takes the lock too, so that it names the
 * sessions the real prune would keep (held elsewhere) the same way.
 */
export function pruneIfStillOld(
  path: string,
  id: string,
  listedUpdatedAt: string,
  cutoff: number,
  dryRun: boolean,
): boolean {
  const lock = lockSession(path, id);
  try {
    const scanned = scanSession(readFileSync(path), null)?.state;
    const updatedAt = scanned?.updatedAt || scanned?.createdAt || listedUpdatedAt;
    if (!olderThan(updatedAt, cutoff)) return false;
    if (!dryRun) unlinkSync(path);
    return true;
  } catch (error) {
    if (error instanceof RiendaError) throw error;
    throw new RiendaError("session", `cannot remove session file ${path}: ${messageOf(error)}`, { cause: error });
  } finally {
    lock.release();
  }
}

function olderThan(updatedAt: string, cutoff: number): boolean {
  const at = Date.parse(updatedAt);
  return Number.isFinite(at) && at < cutoff;
}

function removeLocked(path: string, id: string): void {
  const lock = lockSession(path, id);
  try {
    unlinkSync(path);
  } catch (error) {
    throw new RiendaError("session", `cannot remove session file ${path}: ${messageOf(error)}`, { cause: error });
  } finally {
    lock.release();
  }
}
