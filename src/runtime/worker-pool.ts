/** Hands out fresh workers, keeping at most one booted in advance. */
export interface WorkerPool {
  /** A worker nobody has used; the caller terminates it when done. */
  take(): Worker;
  /** Stops the spare worker; take() still works (without a spare). */
  close(): void;
}

type Refable = Worker & { ref?(): void; unref?(): void };

/**
 * The spare is replaced as soon as it is taken, so it boots while the
 * current invocation runs. An idle spare must not keep the process alive.
 */
export function createWorkerPool(url: URL, keepSpare: boolean): WorkerPool {
  let spare: Refable | undefined;
  let closed = false;

  const spawn = (): Refable => new Worker(url.href, { type: "module" } as WorkerOptions);
  const refill = () => {
    if (closed || !keepSpare || spare) return;
    spare = spawn();
    spare.unref?.();
  };

  return {
    take() {
      const worker = spare ?? spawn();
      spare = undefined;
      worker.ref?.();
      queueMicrotask(refill);
      return worker;
    },
    close() {
      closed = true;
      spare?.terminate();
      spare = undefined;
    },
  };
}
