/**
 * Why a tool's `execute` and a hook's handlers must not be asynchronous.
 * Each call runs in a fresh worker that is parked the moment the function
 * returns, so a Promise it returns never settles and nothing scheduled on
 * one ever runs: an `async` function fails on every call. Discovery refuses
 * one outright; a plain function that mentions promises only gets a warning,
 * since its source alone does not prove that it returns one.
 */

/** The problem of an `async` function where a synchronous one is needed. */
export function asyncProblem(member: string): string {
  return `"${member}" is an async function: it returns a Promise, so every call would fail (drop "async" and "await": ctx calls return their answers directly)`;
}

/** The warning for a plain function whose source mentions Promise, .then( or await. */
export function promiseWarning(member: string): string {
  return `"${member}" seems to use promises (its source mentions Promise, .then or await), but nothing asynchronous completes after it returns: a returned Promise is an error and .then callbacks never run (return the result directly; ctx calls are synchronous)`;
}
