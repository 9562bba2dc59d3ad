/** Opens an existing session by id for continuing (found, read, locked). */
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { isFile } from "../values.ts";
import { cutTornTail } from "./cut-torn-tail.ts";
import { createIdGenerator } from "./new-id.ts";
import { parseSessionBytes, type ParsedSession } from "./parse-session-bytes.ts";
import { SessionFile } from "./session-file.ts";
import { lockSession } from "./session-lock.ts";
import type { IdGenerator } from "./types.ts";
import { allWorkspaceDirs, workspaceDirs } from "./workspace-dir.ts";

/** Which session to open. `ids` and `now` are injectable for tests. */
export interface OpenSessionOptions {
  home: string;
  id: string;
  /** Searched first; without it (or when the id is not there) every workspace is searched. */
  workdir?: string;
  ids?: IdGenerator;
  now?: () => number;
}

/** Session ids are file names: no separators, no leading dot. */
export const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Opens a session by id for writing: looked up in this workspace's
 * directory, else in any workspace directory. The session's lock is taken
 * first (another live rienda holding it → RiendaError naming its pid), then
 * the file is read and a torn tail cut, both under the lock. A stale lock
 * taken over over an unanswered request records its interruption. Unknown id →
 * RiendaError `unknown session "x"`; a broken file → RiendaError naming the
 * file and the line. Close the returned session to release the lock.
 */
export function openSession(options: OpenSessionOptions): SessionFile {
  const path = findSessionFile(options.home, options.id, options.workdir);
  const lock = lockSession(path, options.id);
  try {
    const parsed = readRepaired(path, options.id);
    if (parsed.header.id !== options.id) {
      throw new RiendaError("session", `session file ${path} holds session "${parsed.header.id}", not "${options.id}"`);
    }
    const session = new SessionFile({
      ...parsed,
      path,
      lock,
      ids: options.ids ?? createIdGenerator(),
      now: options.now ?? Date.now,
    });
    // A stale lock: its process died mid-run (kill -9, a crash) without recording the interruption. Recorded
    // now, or the next prompt would be glued onto the request it left unanswered.
    if (lock.tookOver && session.messages().at(-1)?.role === "user") session.appendInterruption();
    return session;
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Reads and parses the file; a torn tail (a crash mid-write) is cut at once,
 * and only if the file still has the size that was read, so nothing written
 * after the read (by a program that ignores the lock) is ever cut.
 */
function readRepaired(path: string, id: string): ParsedSession {
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "r+");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") throw unknownSession(id);
      throw new RiendaError("session", `cannot open session file ${path}: ${messageOf(error)}`, { cause: error });
    }
    try {
      const bytes = readFileSync(fd);
      const parsed = parseSessionBytes(bytes, path);
      if (!parsed.torn) return parsed;
      if (!cutTornTail(fd, bytes.length, parsed.validBytes)) continue;
      return { ...parsed, torn: false };
    } catch (error) {
      if (error instanceof RiendaError) throw error;
      throw new RiendaError("session", `cannot read session file ${path}: ${messageOf(error)}`, { cause: error });
    } finally {
      closeSync(fd);
    }
  }
  throw new RiendaError(
    "session",
    `session file ${path} kept changing while it was opened; is another program writing to it?`,
  );
}

/** The path of a session's file, searched as openSession does; throws `unknown session`. */
export function findSessionFile(home: string, id: string, workdir?: string): string {
  if (!SAFE_ID.test(id)) throw unknownSession(id);
  const inDirs = (dirs: string[]) => dirs.map((dir) => join(dir, `${id}.jsonl`)).find(isFile);
  const found =
    (workdir === undefined ? undefined : inDirs(workspaceDirs(home, workdir))) ?? inDirs(allWorkspaceDirs(home));
  if (found === undefined) throw unknownSession(id);
  return found;
}

function unknownSession(id: string): RiendaError {
  return new RiendaError("session", `unknown session "${id}"`);
}
