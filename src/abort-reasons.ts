/**
 * What an abort says about its cause. A leaf of its own because the
 * interrupt watcher, loaded before anything else as the program starts
 * (src/main.ts), needs it: importing it from the engine loaded the whole
 * engine for `rienda --version` (25 to 41 ms, 21 to 38 MB).
 */

/**
 * The abort reason of a run its time limit ended (`--timeout`): the
 * command aborts the run's signal with it, and every signal derived from
 * that one (a tool's, a subagent's) carries it, so that each session the
 * run wrote records a limit, never a user's interrupt.
 */
export function timeLimitAbort(): DOMException {
  return new DOMException("the run reached its time limit", "TimeoutError");
}

/** Whether `signal` was aborted by a time limit (timeLimitAbort) rather than by the user. */
export function abortedByTimeLimit(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return reason instanceof DOMException && reason.name === "TimeoutError";
}
