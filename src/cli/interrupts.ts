/**
 * SIGINT/SIGTERM/SIGHUP for commands that run work: the first signal aborts
 * the run (tools stopped, stream cancelled, afterRun still runs); a second
 * one also aborts the final phase, and a third exits at once. SIGHUP (the
 * terminal went away) counts as an interrupt so that tools' processes are
 * ended instead of outliving the run.
 */

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Signals of one command run. */
export interface Interrupts {
  /** Aborted by the first SIGINT/SIGTERM. */
  readonly signal: AbortSignal;
  /** Aborted by the second one (afterRun hooks and cleanup). */
  readonly finalSignal: AbortSignal;
  /** Whether any interrupt arrived. */
  readonly interrupted: boolean;
  /** Removes the handlers. */
  dispose(): void;
}

/** Installs the handlers; `onHardExit` runs on the third signal. */
export function watchInterrupts(onHardExit: () => void): Interrupts {
  const run = new AbortController();
  const final = new AbortController();
  let count = 0;
  const handler = (): void => {
    count++;
    if (count === 1) run.abort();
    else if (count === 2) final.abort();
    else onHardExit();
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    signal: run.signal,
    finalSignal: final.signal,
    get interrupted() {
      return count > 0;
    },
    dispose() {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
