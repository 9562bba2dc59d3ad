/**
 * Ending the process without losing output. A piped stdout must never lose
 * the end of an answer, and lingering handles (spare workers, keep-alive
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
 */
import { interrupts } from "./interrupts.ts";

/** The write count of one stream. */
interface OutputState {
  pending: number;
  /** The reader is gone (or the stream failed): writes are dropped. */
  closed: boolean;
  waiters: Array<() => void>;
}

const states = new Map<NodeJS.WriteStream, OutputState>();

/**
 * Counts every write to stdout and stderr from now on, and turns a closed
 * stdout into an interrupt (`stdout-closed`). Called once, before anything
 * is written; later calls do nothing.
 */
export function trackOutput(): void {
  track(process.stdout, () => interrupts().interrupt("stdout-closed"));
  track(process.stderr, () => undefined);
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
    process.stderr.write("rienda: stdout was closed before everything was written (its reader went away)\n");
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

function track(stream: NodeJS.WriteStream, onClosed: () => void): void {
  if (states.has(stream)) return;
  const state: OutputState = { pending: 0, closed: false, waiters: [] };
  states.set(stream, state);
  const settle = (): void => {
    if (state.pending > 0 && !state.closed) return;
    const waiters = state.waiters.splice(0);
    for (const wake of waiters) wake();
  };
  const write = stream.write.bind(stream) as (chunk: unknown, encoding?: BufferEncoding, callback?: (error?: Error | null) => void) => boolean;
  const counted = (chunk: unknown, encodingOrCallback?: unknown, maybeCallback?: unknown): boolean => {
    const callback = (typeof encodingOrCallback === "function" ? encodingOrCallback : maybeCallback) as ((error?: Error | null) => void) | undefined;
    const encoding = typeof encodingOrCallback === "string" ? (encodingOrCallback as BufferEncoding) : undefined;
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
  stream.on("error", () => {
    // EPIPE and the like: the reader is gone; nothing written later can arrive.
    if (state.closed) return;
    state.closed = true;
    settle();
    onClosed();
  });
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  const state = states.get(stream);
  if (!state || state.pending === 0 || state.closed) return Promise.resolve();
  return new Promise((resolve) => state.waiters.push(resolve));
}
