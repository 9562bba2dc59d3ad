/** Host side: hands out fresh context workers, keeping spares booted ahead. */
import { createBridgeBuffer, HEADER_BYTES, INITIAL_BYTES } from "../bridge-layout.ts";
import { endContextProcesses } from "./context-processes.ts";
import type { ContextData } from "../types.ts";
import type { DataMessage, PrepareMessage, WorkerMessage } from "../worker-messages.ts";

/** A worker nobody has used, with its shared buffer. */
export interface FreshWorker {
  worker: Worker;
  buffer: SharedArrayBuffer;
  /** Whether the worker already has the buffer; otherwise the call message carries it. */
  prepared: boolean;
  /** The `ctx` data the worker was prepared with (compared by identity); the call sends it otherwise. */
  data: ContextData | undefined;
}

/** Hands out fresh workers, keeping some booted in advance. */
export interface WorkerPool {
  /**
   * A worker nobody has used; the caller terminates it when done, and calls
   * release(). Taking the last spare starts its replacement at once, unless
   * `replaceNow` is false (discovery: the lanes need the cores).
   */
  take(replaceNow?: boolean): FreshWorker;
  /** A call that took a worker is over (replacements wait until no call runs). */
  release(): void;
  /**
   * A worker whose call is over and that runs nothing anymore (it blocks
   * until ended). Ending a worker slows down the workers running at the same
   * time, so when another call has started meanwhile (a hook chain), it is
   * ended once no call runs; otherwise at once.
   */
  retire(worker: Worker): void;
  /** How many spares to keep booted from now on (0: spawn on demand only). */
  setSpares(count: number): void;
  /**
   * The `ctx` data the next calls will likely use: spares get a copy ahead,
   * so a call does not carry it. Treated as immutable (compared by identity).
   */
  expect(data: ContextData): void;
  /**
   * Resolves once as many spares as asked for are booted and hold the
   * expected data (at once after close). For tests and benchmarks, which must
   * know that the next take() gets a prepared spare.
   */
  settled(): Promise<void>;
  /** Stops the spares; take() still works (without a spare). */
  close(): void;
}

/** Settings of a pool. */
export interface WorkerPoolOptions {
  /** Spares to keep booted. */
  spares: number;
  /**
   * While other spares are left, taken ones are replaced only once no call
   * has run for this long: a burst of calls (a tool call and its hooks) then
   * never competes with booting workers for the CPU.
   */
  quietMs?: number;
}

type Refable = Worker & { ref?(): void; unref?(): void };

interface Spare extends FreshWorker {
  worker: Refable;
}

/** Measured: calls of one burst follow each other within a millisecond or two. */
const QUIET_MS = 3;


/**
 * Spares boot one at a time: on two cores a crowd of booting workers slows
 * the invocation that is running. When the last spare is taken, its
 * replacement starts at once (another call is likely to follow); otherwise
 * replacements wait until the burst of calls is over (no call running for
 * `quietMs`). An idle spare must not keep the process alive.
 */
export function createWorkerPool(url: URL, options: WorkerPoolOptions): WorkerPool {
  const quietMs = options.quietMs ?? QUIET_MS;
  const buffers = createBufferStore();
  const idle: Spare[] = [];
  let target = options.spares;
  let booting: Spare | undefined;
  let lastBusy = -Infinity;
  let running = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expected: ContextData | undefined;
  const retired: Refable[] = [];
  let sweeping = false;
  let closed = false;
  const waiters: Array<() => void> = [];

  const isSettled = () =>
    closed || (running === 0 && !booting && !timer && idle.length >= target && idle.every((spare) => expected === undefined || spare.data === expected));
  const wakeWaiters = () => {
    if (waiters.length === 0 || !isSettled()) return;
    for (const wake of waiters.splice(0)) wake();
  };

  /** Ends the retired workers, unless a call has started since they were retired. */
  const sweep = () => {
    sweeping = false;
    if (running === 0) for (const worker of retired.splice(0)) worker.terminate();
  };

  const spawn = (): Spare => {
    const worker = new Worker(url.href, { type: "module" } as WorkerOptions);
    const buffer = buffers.take();
    // Only once the worker is gone for good can nothing write into its buffer
    // anymore: a process it started while it was being ended is ended now.
    worker.addEventListener("close", () => {
      endContextProcesses(buffer);
      buffers.give(buffer);
    });
    return { worker, buffer, prepared: false, data: undefined };
  };

  const spawnSpare = (): Spare => {
    const spare = spawn();
    spare.worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      if (event.data.kind !== "ready") return;
      if (booting !== spare) return;
      booting = undefined;
      refillWhenQuiet();
    };
    // The worker prepares everything that does not depend on the call now.
    spare.worker.postMessage({ kind: "prepare", buffer: spare.buffer, warm: true, ...(expected ? { data: expected } : {}) } satisfies PrepareMessage);
    spare.worker.unref?.();
    spare.prepared = true;
    spare.data = expected;
    return spare;
  };

  /** Idle spares prepared with other data get the expected data (messages arrive in order, before any call). */
  const refresh = () => {
    for (const spare of idle) {
      if (spare.data === expected || expected === undefined) continue;
      spare.worker.postMessage({ kind: "data", data: expected } satisfies DataMessage);
      spare.data = expected;
    }
  };

  const refill = () => {
    if (closed || booting || idle.length >= target) {
      wakeWaiters();
      return;
    }
    booting = spawnSpare();
    idle.push(booting);
  };

  const refillWhenQuiet = () => {
    if (closed || timer || running > 0) return;
    const wait = lastBusy + quietMs - performance.now();
    if (wait <= 0) {
      for (const worker of retired.splice(0)) worker.terminate();
      refresh();
      refill();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      refillWhenQuiet();
    }, wait);
    (timer as { unref?(): void }).unref?.();
  };

  return {
    take(replaceNow = true) {
      running++;
      // The oldest spare is the one most likely to have finished booting.
      const spare = idle.shift() ?? spawn();
      if (booting === spare) booting = undefined;
      spare.worker.onmessage = null;
      spare.worker.ref?.();
      if (idle.length === 0 && replaceNow) queueMicrotask(refill);
      return spare;
    },
    release() {
      running = Math.max(0, running - 1);
      lastBusy = performance.now();
      refillWhenQuiet();
    },
    expect(data) {
      if (data === expected) return;
      expected = data;
      refillWhenQuiet();
    },
    retire(worker) {
      // No spare left: calls come faster than workers boot, and every later
      // call waits for a boot anyway; this worker's memory is better freed.
      if (closed || idle.length === 0) {
        worker.terminate();
        return;
      }
      (worker as Refable).unref?.();
      retired.push(worker);
      // A burst is about as long as the spares kept for it: bounded memory.
      while (retired.length > Math.max(1, target)) retired.shift()!.terminate();
      // The next call of a chain starts before a timer fires.
      if (!sweeping) {
        sweeping = true;
        (setTimeout(sweep, 0) as { unref?(): void }).unref?.();
      }
    },
    setSpares(count) {
      target = Math.max(0, Math.floor(count));
      while (idle.length > target) {
        const extra = idle.pop()!;
        if (booting === extra) booting = undefined;
        extra.worker.terminate();
      }
      refillWhenQuiet();
    },
    settled() {
      if (isSettled()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        refillWhenQuiet();
      });
    },
    close() {
      closed = true;
      for (const wake of waiters.splice(0)) wake();
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const spare of idle.splice(0)) spare.worker.terminate();
      for (const worker of retired.splice(0)) worker.terminate();
      booting = undefined;
    },
  };
}

/** At most this many bridge buffers wait to be used again. */
const KEPT_BUFFERS = 16;

/**
 * Bridge buffers of ended workers, used again. Measured with Bun 1.4: every
 * growable SharedArrayBuffer that may grow to 1 GiB leaves about 10 KB of
 * RSS behind when it is freed (10,000 invocations: +97 MB), whatever it
 * held; one that is used again costs nothing more. A buffer that grew is
 * not kept (it would hold its memory), nor more than KEPT_BUFFERS.
 */
function createBufferStore(): { take(): SharedArrayBuffer; give(buffer: SharedArrayBuffer): void } {
  const free: SharedArrayBuffer[] = [];
  return {
    take: () => free.pop() ?? createBridgeBuffer(),
    give(buffer) {
      if (buffer.byteLength !== INITIAL_BYTES || free.length >= KEPT_BUFFERS) return;
      // A fresh start: state IDLE, no interrupt, no payload.
      new Uint8Array(buffer, 0, HEADER_BYTES).fill(0);
      free.push(buffer);
    },
  };
}
