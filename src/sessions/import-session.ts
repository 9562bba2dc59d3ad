/**
 * `sessions import FILE`: a session file (an export, or one copied from
 * another machine or from the Go Rienda) filed into this workspace. It is
 * checked whole first, as loading checks it (header, every line, the
 * links of the tree), and refused with the reason when anything is wrong,
 * a torn last line included (a copy that was cut short), and what only an
 * import refuses (import-checks.ts). A session with the
 * same id anywhere under ~/.rienda/sessions is never overwritten. The header's
 * `workdir` becomes the workspace it is imported into, so `-s ID` continues it
 * here; every other byte is kept as it was.
 */
import { Buffer } from "node:buffer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { encodeEntry } from "./encode-entry.ts";
import { findSessionFile, SAFE_ID } from "./open-session.ts";
import { lineSpans, parseSessionBytes } from "./parse-session-bytes.ts";
import { caseTwin, contentProblem, sizeProblem } from "./import-checks.ts";
import { lockSession } from "./session-lock.ts";
import { workspaceDir } from "./workspace-dir.ts";

/** What an import made. */
export interface ImportedSession {
  id: string;
  path: string;
  messageCount: number;
}

/** Checks `bytes` (read from `source`, for messages) and files them as a session of `workdir`. */
export function importSession(options: {
  home: string;
  workdir: string;
  bytes: Uint8Array;
  source: string;
}): ImportedSession {
  const { home, bytes, source } = options;
  const workdir = resolve(options.workdir);
  const refuse = (problem: string) => new RiendaError("session", `${source}: ${problem}; nothing was imported`);
  const tooBig = sizeProblem(bytes);
  if (tooBig) throw refuse(tooBig);
  const parsed = parseSessionBytes(bytes, source);
  if (parsed.torn) throw refuse("the last line is incomplete (the file was cut short?)");
  const id = parsed.header.id;
  if (!SAFE_ID.test(id)) throw refuse(`the session id ${JSON.stringify(id)} cannot be a file name`);
  const wrong = contentProblem(parsed);
  if (wrong) throw refuse(wrong);
  const twin = caseTwin(home, id);
  if (twin)
    throw refuse(
      `session ${id} differs only in case from session ${twin}, already here (on a file system that ignores case they are one file)`,
    );
  let existing: string | undefined;
  try {
    existing = findSessionFile(home, id);
  } catch {
    existing = undefined;
  }
  if (existing !== undefined)
    throw new RiendaError(
      "session",
      `session ${id} already exists (${existing}); nothing was imported (rienda sessions rm ${id} first to replace it)`,
    );
  const [first] = lineSpans(bytes);
  const rest = first ? bytes.subarray(first.terminated ? first.end + 1 : first.end) : new Uint8Array();
  const header = encodeEntry({ ...parsed.header, workdir });
  const dir = workspaceDir(home, workdir);
  const path = join(dir, `${id}.jsonl`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new RiendaError("session", `cannot create the session directory ${dir}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const lock = lockSession(path, id);
  try {
    // "wx": a file that appeared meanwhile is not overwritten either.
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from(header),
        first?.terminated === false && rest.length > 0 ? Buffer.from("\n") : Buffer.alloc(0),
        rest,
      ]),
      { flag: "wx", mode: 0o600 },
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === "EEXIST")
      throw new RiendaError("session", `session ${id} already exists (${path}); nothing was imported`);
    throw new RiendaError("session", `cannot write session file ${path}: ${messageOf(error)}`, { cause: error });
  } finally {
    lock.release();
  }
  return { id, path, messageCount: parsed.tree.messageCount };
}
