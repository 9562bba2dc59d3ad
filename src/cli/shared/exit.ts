/**
 * Ending the process without losing output. A piped stdout must never lose
 * the end of an answer, and lingering handles (the realm helper, keep-alive
 * sockets) must not keep a finished command alive, so commands end with
 * `exitWhenFlushed`.
 *
 * Why writes are counted: Bun calls the callback of an empty write at once,
 * even while megabytes are still queued for a slow reader, so waiting on
 * `write("", cb)` proves nothing and `process.exit()` then drops the queue.
 * The callback of a real write fires once its bytes have left. So every
 * write to stdout and stderr is counted from the start of the command line
 * (`trackOutput`), and the process ends only when none is pending.
 *
 * A stream whose reader went away (EPIPE) fails every pending and later
 * write: nothing is waited for on it any more, later writes are dropped
 * (no stack trace), and a closed stdout is reported as an interrupt.
 *
 * A stdout closed before the command started (`rienda run ... >&-`) is
 * taken for a pipe whose reader has already gone: the first write to it
 * finds it closed. The runtime hides that case (below, `closedAtStart`).
 */
import { fstatSync, readFileSync, readlinkSync } from "node:fs";
import { interrupts } from "./interrupts.ts";

/** The write count of one stream. */
interface OutputState {
  pending: number;
  /** The reader is gone (or the stream failed): writes are dropped. */
  closed: boolean;
  /** The descriptor was closed when the process started: the first write closes the stream. */
  closedAtStart: boolean;
  waiters: Array<() => void>;
  /** Takes the reader for gone: wakes the waiters, drops later writes, reports it once. */
  close(): void;
}

const states = new Map<NodeJS.WriteStream, OutputState>();

/**
 * Counts every write to stdout and stderr from now on, and turns a closed
 * stdout into an interrupt (`stdout-closed`). Called once, before anything
 * is written; later calls do nothing.
 */
export function trackOutput(): void {
  track(process.stdout, 1, () => interrupts().interrupt("stdout-closed"));
  track(process.stderr, 2, () => undefined);
}

/**
 * Ends the process with `code` once everything written to stdout and stderr
 * has left. An interrupt while waiting (a reader that never reads, a
 * shutdown that hangs) ends it at once with the interrupt's exit status.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  const watcher = interrupts();
  const before = watcher.count;
  await untilNextInterrupt(Promise.all([flushed(process.stdout), flushed(process.stderr)]));
  if (stdoutClosed()) {
    // Said once, on the stream that still works, whichever command was writing.
    process.stderr.write(
      states.get(process.stdout)?.closedAtStart
        ? "rienda: stdout was closed when the command started (as by >&-): nothing can be written to it\n"
        : "rienda: stdout was closed before everything was written (its reader went away)\n",
    );
    await untilNextInterrupt(flushed(process.stderr));
  }
  process.exit(watcher.count > before ? watcher.exitCode : code);
}

/** Resolves when `work` settles or when the next interrupt arrives, whichever is first; never rejects. */
export function untilNextInterrupt(work: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = interrupts().listen(() => resolve());
    const done = (): void => {
      stop();
      resolve();
    };
    void work.then(done, done);
  });
}

/** Whether the reader of stdout went away. */
export function stdoutClosed(): boolean {
  return states.get(process.stdout)?.closed ?? false;
}

/**
 * For a command whose whole point is its stdout (a run's answer, a tool's
 * result): when stdout was closed at start, it is taken for closed now, as
 * the first write would (an interrupt, `stdout-closed`), so the command
 * stops before doing any work whose result could never be read. Returns
 * whether it was.
 */
export function refuseClosedStdout(): boolean {
  const state = states.get(process.stdout);
  if (state?.closedAtStart) state.close();
  return state?.closed ?? false;
}

function track(stream: NodeJS.WriteStream, fd: 1 | 2, onClosed: () => void): void {
  if (states.has(stream)) return;
  const settle = (): void => {
    if (state.pending > 0 && !state.closed) return;
    const waiters = state.waiters.splice(0);
    for (const wake of waiters) wake();
  };
  const close = (): void => {
    // EPIPE and the like: the reader is gone; nothing written later can arrive.
    if (state.closed) return;
    state.closed = true;
    settle();
    onClosed();
  };
  const state: OutputState = { pending: 0, closed: false, closedAtStart: closedAtStart(fd), waiters: [], close };
  states.set(stream, state);
  const write = stream.write.bind(stream) as (
    chunk: unknown,
    encoding?: BufferEncoding,
    callback?: (error?: Error | null) => void,
  ) => boolean;
  const counted = (chunk: unknown, encodingOrCallback?: unknown, maybeCallback?: unknown): boolean => {
    const callback = (typeof encodingOrCallback === "function" ? encodingOrCallback : maybeCallback) as
      | ((error?: Error | null) => void)
      | undefined;
    const encoding = typeof encodingOrCallback === "string" ? (encodingOrCallback as BufferEncoding) : undefined;
    if (state.closedAtStart && !state.closed) close();
    if (state.closed) {
      if (callback) queueMicrotask(() => callback(null));
      return false;
    }
    state.pending++;
    return write(chunk, encoding, (error) => {
      state.pending--;
      settle();
      callback?.(error);
    });
  };
  stream.write = counted as typeof stream.write;
  stream.on("error", close);
}

/** Linux's O_CLOEXEC as /proc/self/fdinfo shows it (octal 02000000). */
const O_CLOEXEC = 0o2000000;

/**
 * Whether standard descriptor `fd` was closed when the process started.
 * Bun, like most runtimes, opens /dev/null on a standard descriptor it
 * finds closed (so that no file opened later takes its number and gets the
 * program's output), which makes `>&-` look like `>/dev/null`. The one it
 * opens is close-on-exec, which an inherited descriptor never is (exec
 * closes those), so Linux's /proc tells them apart. Elsewhere only a
 * descriptor still closed (EBADF, as other runtimes leave it) is seen.
 */
function closedAtStart(fd: 1 | 2): boolean {
  try {
    fstatSync(fd);
  } catch (error) {
    return (error as { code?: unknown }).code === "EBADF";
  }
  if (process.platform !== "linux") return false;
  try {
    const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
    return (
      flags !== undefined &&
      (parseInt(flags, 8) & O_CLOEXEC) !== 0 &&
      readlinkSync(`/proc/self/fd/${fd}`) === "/dev/null"
    );
  } catch {
    return false;
  }
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  const state = states.get(stream);
  if (!state || state.pending === 0 || state.closed) return Promise.resolve();
  return new Promise((resolve) => state.waiters.push(resolve));
}
