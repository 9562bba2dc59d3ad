/**
 * The one race between work that cannot be cancelled (loading a module that
 * hangs, reading stdin, preparing a subagent) and an interrupt: the caller
 * stops waiting as soon as `signal` is aborted, and whatever the work does
 * afterwards is left alone (a late rejection is swallowed, never an
 * unhandled one). The work must not write anything once `signal` is aborted.
 */

import { RiendaError } from "./errors.ts";

/** What `raceAbort` gives when the signal won. */
export const ABORTED: unique symbol = Symbol("aborted");

/** `work`'s value, or ABORTED as soon as `signal` is aborted (at once when it already is). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  const abandon = (): typeof ABORTED => {
    work.catch(() => undefined);
    return ABORTED;
  };
  if (signal.aborted) return Promise.resolve(abandon());
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = (): void => resolve(abandon());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Waits for `work` unless `signal` is aborted first, then rejects as
 * interrupted: setup that cannot be cancelled itself must not hold up an interrupt.
 */
export async function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const result = await raceAbort(work, signal);
  if (result === ABORTED) throw new RiendaError("interrupted", "the run was interrupted");
  return result;
}
