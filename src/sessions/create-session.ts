/** Creates a new session: its file, header written and lock taken, or one kept in memory (--no-session). */
import { Buffer } from "node:buffer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { encodeEntry } from "./encode-entry.ts";
import { createIdGenerator } from "./new-id.ts";
import { SessionFile } from "./session-file.ts";
import { lockSession } from "./session-lock.ts";
import { SessionTree } from "./session-tree.ts";
import { SESSION_FORMAT_VERSION, type IdGenerator, type SessionHeader } from "./types.ts";
import { workspaceDir } from "./workspace-dir.ts";

/** What a new session needs. `ids` and `now` are injectable for tests. */
export interface CreateSessionOptions {
  home: string;
  workdir: string;
  agent: string;
  model: string;
  ids?: IdGenerator;
  now?: () => number;
  /** A subagent's session: the session and tool call that start it, written in the header. */
  parent?: { sessionId: string; callId: string };
  /** A fork: the session it continues and the entry it continues after, written in the header. */
  forkOf?: { sessionId: string; entryId: string | null };
  /** Kept in memory only (--no-session): no directory, no file, no lock. */
  memory?: boolean;
}

/** A lock that holds nothing, for a session kept in memory. */
const NO_LOCK = { path: "", tookOver: false, release: () => undefined };

/**
 * Creates `~/.rienda/sessions/<slug>-<hash8>/<id>.jsonl` (directories 0700,
 * file 0600) holding only the header line. The file is created exclusively,
 * so an existing session is never overwritten. The session is returned open
 * (its lock held); close it to release the lock.
 */
export function createSession(options: CreateSessionOptions): SessionFile {
  const { home, agent, model } = options;
  if (agent.trim() === "") throw new RiendaError("session", "cannot create a session without an agent");
  if (model.trim() === "") throw new RiendaError("session", "cannot create a session without a model");
  const workdir = resolve(options.workdir);
  const ids = options.ids ?? createIdGenerator();
  const now = options.now ?? Date.now;
  const dir = workspaceDir(home, workdir);
  if (options.memory) {
    const header = headerOf(options, ids(), now, workdir);
    return new SessionFile({
      path: join(dir, `${header.id}.jsonl`),
      lock: NO_LOCK,
      header,
      tree: new SessionTree(),
      validBytes: 0,
      torn: false,
      needsNewline: false,
      ids,
      now,
      memory: true,
    });
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new RiendaError("session", `cannot create the session directory ${dir}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  for (let attempt = 0; ; attempt++) {
    const header = headerOf(options, ids(), now, workdir);
    const id = header.id;
    const path = join(dir, `${id}.jsonl`);
    const line = encodeEntry(header);
    // Locked before it exists, so no other process can open it half-made.
    const lock = lockSession(path, id);
    try {
      // "wx": never overwrite a session, even if an id repeats.
      writeFileSync(path, line, { flag: "wx", mode: 0o600 });
    } catch (error) {
      lock.release();
      if ((error as { code?: unknown }).code === "EEXIST" && attempt < 3) continue;
      throw new RiendaError("session", `cannot create session file ${path}: ${messageOf(error)}`, { cause: error });
    }
    return new SessionFile({
      path,
      lock,
      header,
      tree: new SessionTree(),
      validBytes: Buffer.byteLength(line),
      torn: false,
      needsNewline: false,
      ids,
      now,
      created: true,
    });
  }
}

function headerOf(options: CreateSessionOptions, id: string, now: () => number, workdir: string): SessionHeader {
  return {
    kind: "header",
    version: SESSION_FORMAT_VERSION,
    id,
    createdAt: new Date(now()).toISOString(),
    agent: options.agent,
    model: options.model,
    workdir,
    ...(options.parent ? { parentSession: options.parent.sessionId, parentCallId: options.parent.callId } : {}),
    ...(options.forkOf ? { forkedFrom: options.forkOf.sessionId, forkedAt: options.forkOf.entryId } : {}),
  };
}
