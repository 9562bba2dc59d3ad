/**
 * Why a tool's `execute` and a hook's handlers must not be asynchronous.
 * Each call runs in a fresh context that runs nothing more the moment the
 * function returns, so a Promise it returns never settles and nothing scheduled on
 * one ever runs: an `async` function fails on every call. It still loads,
 * since the spec pages make a bad return a call's failure and never the
 * run's (tools.md: anything but a string or { text } is an error result;
 * hooks.md: a malformed value is reported and ignored, a hook never fails a
 * run); discovery says so once with a diagnostic, and doctor counts it as a
 * problem. A plain function that mentions promises only gets a warning,
 * since its source alone does not prove that it returns one.
 */
import type { ExtensionKind } from "./types.ts";

/** What is wrong with an `async` function where a synchronous one is needed, and what every call will do. */
export function asyncProblem(kind: ExtensionKind, member: string): string {
  const outcome = kind === "tool" ? "every call ends in an error result" : "every call is reported and ignored";
  return `"${member}" is an async function: it returns a Promise, so ${outcome} (drop "async" and "await": ctx calls return their answers directly)`;
}

/** The warning for a plain function whose source mentions Promise, .then( or await. */
export function promiseWarning(member: string): string {
  return `"${member}" seems to use promises (its source mentions Promise, .then or await), but nothing asynchronous completes after it returns: a returned Promise is an error and .then callbacks never run (return the result directly; ctx calls are synchronous)`;
}
