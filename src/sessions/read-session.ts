/**
 * A session read without opening it: no lock is taken and nothing is cut
 * or written, so a session another process holds can still be shown,
 * exported or forked. A torn last line (a crash, or a write in progress
 * elsewhere) is left out, as loading does.
 */
import { readFileSync } from "node:fs";
import { messageOf, RiendaError } from "../errors.ts";
import { findSessionFile } from "./open-session.ts";
import { parseSessionBytes, type ParsedSession } from "./parse-session-bytes.ts";

/** Which session to read, found as openSession finds it. */
export interface ReadSessionOptions {
  home: string;
  id: string;
  workdir?: string;
}

/** A session as stored, read-only. */
export interface StoredSession extends ParsedSession {
  path: string;
  /** The bytes of its whole entries: the file without a torn tail. */
  bytes: Uint8Array;
}

/** Reads session `id`; unknown id or a broken file → RiendaError naming it. */
export function readSession(options: ReadSessionOptions): StoredSession {
  const path = findSessionFile(options.home, options.id, options.workdir);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new RiendaError("session", `cannot read session file ${path}: ${messageOf(error)}`, { cause: error });
  }
  const parsed = parseSessionBytes(bytes, path);
  if (parsed.header.id !== options.id)
    throw new RiendaError("session", `session file ${path} holds session "${parsed.header.id}", not "${options.id}"`);
  return { ...parsed, path, bytes: bytes.subarray(0, parsed.validBytes) };
}
