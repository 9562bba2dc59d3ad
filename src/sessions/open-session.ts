import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { createIdGenerator } from "./new-id.ts";
import { parseSessionBytes } from "./parse-session-bytes.ts";
import { SessionFile } from "./session-file.ts";
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
const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Opens a session by id: looked up in this workspace's directory, else in
 * any workspace directory. Unknown id → RiendaError `unknown session "x"`;
 * a broken file → RiendaError naming the file and the line.
 */
export function openSession(options: OpenSessionOptions): SessionFile {
  const path = findSessionFile(options.home, options.id, options.workdir);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") throw unknownSession(options.id);
    throw new RiendaError("session", `cannot read session file ${path}: ${messageOf(error)}`, { cause: error });
  }
  const parsed = parseSessionBytes(bytes, path);
  if (parsed.header.id !== options.id) {
    throw new RiendaError("session", `session file ${path} holds session "${parsed.header.id}", not "${options.id}"`);
  }
  return new SessionFile({ ...parsed, path, ids: options.ids ?? createIdGenerator(), now: options.now ?? Date.now });
}

/** The path of a session's file, searched as openSession does; throws `unknown session`. */
export function findSessionFile(home: string, id: string, workdir?: string): string {
  if (!SAFE_ID.test(id)) throw unknownSession(id);
  const inDirs = (dirs: string[]) => dirs.map((dir) => join(dir, `${id}.jsonl`)).find(isFile);
  const found = (workdir === undefined ? undefined : inDirs(workspaceDirs(home, workdir))) ?? inDirs(allWorkspaceDirs(home));
  if (found === undefined) throw unknownSession(id);
  return found;
}

function unknownSession(id: string): RiendaError {
  return new RiendaError("session", `unknown session "${id}"`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
