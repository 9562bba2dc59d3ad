/** Shared fixtures of the session unit tests: temp homes and a deterministic clock and id source. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as sessions from "../../src/sessions/index.ts";
import {
  createIdGenerator,
  type CreateSessionOptions,
  type IdGenerator,
  type OpenSessionOptions,
  type SessionFile,
} from "../../src/sessions/index.ts";

/** A temp directory removed by `dispose`. */
export function tempHome(): { home: string; workdir: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), "rienda-sessions-"));
  return {
    home: join(root, "home"),
    workdir: join(root, "work"),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A clock that starts at `start` and advances `step` ms per reading. */
export function steppingClock(start = Date.UTC(2025, 0, 2, 3, 4, 5), step = 1000): () => number {
  let t = start - step;
  return () => (t += step);
}

/** Ids from a stepping clock, so their order is the order of creation. */
export function steppingIds(start?: number): IdGenerator {
  return createIdGenerator({ now: steppingClock(start, 1) });
}

/**
 * createSession and openSession of the module, for tests that reopen a
 * session to look at what was written: each open stands for a new process,
 * so the copy this test still holds open (and its lock) is closed first.
 */
const held = new Map<string, SessionFile>();

export function createSession(options: CreateSessionOptions): SessionFile {
  return track(sessions.createSession(options));
}

export function openSession(options: OpenSessionOptions): SessionFile {
  held.get(options.id)?.close();
  return track(sessions.openSession(options));
}

function track(session: SessionFile): SessionFile {
  held.set(session.id, session);
  return session;
}
