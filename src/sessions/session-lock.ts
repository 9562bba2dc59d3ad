/**
 * One writer per session: `<id>.lock` beside `<id>.jsonl`, held for as long
 * as the session is open. The lock file names its owner (pid, host, the
 * process's start time where the system tells it) and is created whole, by
 * linking a finished temp file into place, so a reader never sees half of it.
 *
 * A lock whose owner is gone (crash, kill -9) is stale and is taken over.
 * Breaking one happens under a second exclusive file, `<id>.lock.break`, so
 * that two processes recovering the same stale lock cannot both win. Locks
 * still held are removed when the process exits normally.
 */
import { hostname } from "node:os";
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { messageOf, RiendaError } from "../errors.ts";
import { isRecord } from "../values.ts";

/** Who holds a lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  host: string;
  /** When the owner process started, in clock ticks since boot (Linux); absent where unknown. */
  processStart?: number;
  /** Random, to tell this holder's file from a later one. */
  token: string;
}

/** A held session lock. */
export interface SessionLock {
  readonly path: string;
  /** Whether a stale lock was taken over: the last holder died without closing the session. */
  readonly tookOver: boolean;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

/** A break file older than this belongs to a process that died while breaking a stale lock. */
const STALE_BREAK_MS = 10_000;

const held = new Set<HeldLock>();
let exitHookInstalled = false;

/** The lock file of the session file `sessionPath` (`x/<id>.jsonl` → `x/<id>.lock`). */
function lockPathOf(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, "") + ".lock";
}

/**
 * Takes the lock of session `id` stored at `sessionPath`. A live owner →
 * RiendaError naming its pid and what to do; a dead one → taken over.
 */
export function lockSession(sessionPath: string, id: string): SessionLock {
  const path = lockPathOf(sessionPath);
  const me: LockOwner = { pid: process.pid, host: hostname(), token: randomToken(), ...startOf(process.pid) };
  let tookOver = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, me)) return hold(path, me.token, tookOver);
    const text = readText(path);
    if (text === undefined) continue; // released between our two steps: try again
    const owner = parseOwner(text);
    if (owner && isAlive(owner)) throw inUse(id, path, owner);
    breakStale(path, text);
    tookOver = true;
  }
  throw new RiendaError(
    "session",
    `cannot lock session ${id}: ${path} keeps changing; is another rienda opening it? Try again.`,
  );
}

class HeldLock implements SessionLock {
  constructor(
    readonly path: string,
    readonly token: string,
    readonly tookOver: boolean,
  ) {}

  release(): void {
    if (!held.delete(this)) return;
    const owner = parseOwner(readText(this.path) ?? "");
    // Never remove a lock someone else took after ours was (wrongly) broken.
    if (owner?.token !== this.token) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function hold(path: string, token: string, tookOver: boolean): SessionLock {
  const lock = new HeldLock(path, token, tookOver);
  held.add(lock);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const lock of [...held]) lock.release();
    });
  }
  return lock;
}

/** Creates the lock file whole (temp file, then link); false when it exists. */
function tryCreate(path: string, owner: LockOwner): boolean {
  const temp = `${path}.${owner.pid}.${owner.token}`;
  try {
    writeFileSync(temp, `${JSON.stringify(owner)}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    throw new RiendaError("session", `cannot create the lock file ${temp}: ${messageOf(error)}`, { cause: error });
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw new RiendaError("session", `cannot create the lock file ${path}: ${messageOf(error)}`, { cause: error });
  } finally {
    unlinkQuietly(temp);
  }
}

/**
 * Removes the stale lock whose content is `staleText`, unless it changed:
 * only the holder of `<lock>.break` may remove it, so the lock cannot be
 * replaced between the check and the removal by another breaker.
 */
function breakStale(path: string, staleText: string): void {
  const guard = `${path}.break`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (error) {
    if (codeOf(error) !== "EEXIST")
      throw new RiendaError("session", `cannot recover the stale lock ${path}: ${messageOf(error)}`, { cause: error });
    // Someone else is breaking it; a break file left by a crash is removed after a while.
    if (ageOf(guard) > STALE_BREAK_MS) unlinkQuietly(guard);
    return;
  }
  try {
    if (readText(path) === staleText) unlinkQuietly(path);
  } finally {
    closeSync(fd);
    unlinkQuietly(guard);
  }
}

function inUse(id: string, path: string, owner: LockOwner): RiendaError {
  const where = owner.host === hostname() ? `pid ${owner.pid}` : `pid ${owner.pid} on ${owner.host}`;
  return new RiendaError(
    "session",
    `session ${id} is open in another rienda (${where}); wait for it to finish or stop it, then try again. ` +
      `If no rienda runs as ${where}, delete ${path}`,
  );
}

/** Whether the owner's process still runs. Unknowable (another host) counts as alive. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  // Our own pid: alive if this process holds it (the session is already open here), else it was
  // left by an earlier process that had the same pid (containers reuse low pids).
  if (owner.pid === process.pid) return [...held].some((l) => l.token === owner.token);
  const start = startOf(owner.pid);
  if (start.processStart !== undefined) {
    // /proc answers: alive only if that pid runs and started when the owner did (pids are reused).
    return owner.processStart === undefined || owner.processStart === start.processStart;
  }
  if (procAvailable()) return false; // /proc exists but has no such pid
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

/** The start time of a process from /proc/<pid>/stat (Linux); empty elsewhere, or when it does not run (or is a zombie). */
function startOf(pid: number): { processStart?: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields counted after the parenthesised command name (which may hold spaces): 3 is the state, 22 the start time.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return {};
    const start = Number(fields[19]);
    return Number.isFinite(start) ? { processStart: start } : {};
  } catch {
    return {};
  }
}

let procChecked: boolean | undefined;
function procAvailable(): boolean {
  procChecked ??= startOf(process.pid).processStart !== undefined;
  return procChecked;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || typeof value.pid !== "number" || typeof value.token !== "string") return undefined;
    return {
      pid: value.pid,
      host: typeof value.host === "string" ? value.host : hostname(),
      token: value.token,
      ...(typeof value.processStart === "number" ? { processStart: value.processStart } : {}),
    };
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw new RiendaError("session", `cannot read the lock file ${path}: ${messageOf(error)}`, { cause: error });
  }
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
