import { RiendaError } from "../errors.ts";

/**
 * Waits for `work` unless `signal` is aborted first: work that cannot be
 * cancelled itself (loading a module that hangs, reading stdin) must not
 * hold up an interrupt. Whatever `work` does afterwards is left to the exit
 * that follows; it must not write anything once `signal` is aborted.
 */
export function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(interruptedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(interruptedError());
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

function interruptedError(): RiendaError {
  return new RiendaError("interrupted", "the run was interrupted");
}
