/**
 * The process's one interrupt watcher, shared by every command that runs
 * work (run, chat, tool run, the stdin prompt, setup). An interrupt is
 * SIGINT, SIGTERM or SIGHUP (the terminal went away: tools' processes must
 * not outlive it), or one the program reports itself: Ctrl-C pressed at a
 * question on the terminal, or a stdout whose reader went away.
 *
 * The first interrupt aborts `signal` (setup, the model stream, tools, and
 * afterRun hooks of a run that had already finished); the second also
 * aborts `finalSignal` (the afterRun hooks of an interrupted run, cleanup);
 * the third exits at once, whatever is still running or queued.
 */
import { timeLimitAbort } from "../../abort-reasons.ts";
import { TurnInterrupts } from "../../turn-interrupts.ts";

/** What interrupted; `timeout`: the run's time limit (`--timeout`) ran out, which ends it as an interrupt does. */
export type InterruptCause = "SIGINT" | "SIGTERM" | "SIGHUP" | "ctrl-c" | "stdout-closed" | "timeout";

/** Exit status of a command ended by an interrupt (docs/cli.md). */
export const INTERRUPTED_EXIT = 130;
/** Exit status when stdout was closed: 128 + SIGPIPE, what a shell shows for a program its pipe ended. */
export const STDOUT_CLOSED_EXIT = 141;
/** Exit status of a run a limit ended (turns, cost, time: docs/cli.md "Exit statuses"). */
export const LIMIT_EXIT = 3;

/** The shared watcher. */
export interface Interrupts {
  /** Aborted by the first interrupt. */
  readonly signal: AbortSignal;
  /** Aborted by the second. */
  readonly finalSignal: AbortSignal;
  /** Whether any interrupt arrived. */
  readonly interrupted: boolean;
  /** How many arrived. */
  readonly count: number;
  /** What caused the first one. */
  readonly cause: InterruptCause | undefined;
  /** The exit status an interrupted command ends with: 141 when stdout was closed first, 3 when its time ran out first, else 130. */
  readonly exitCode: number;
  /** Reports an interrupt that did not arrive as a signal. */
  interrupt(cause: InterruptCause): void;
  /** Calls `listener` after each interrupt has been counted; returns its remover. */
  listen(listener: (cause: InterruptCause, count: number) => void): () => void;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

let shared: Interrupts | undefined;
/** The handlers installed on the process, until released. */
const handlers = new Map<(typeof SIGNALS)[number], () => void>();

/**
 * Installs the signal handlers as the program starts, before the command
 * line is even loaded: a signal in those first milliseconds would
 * otherwise end the process by its default action, and `rienda run` must
 * end an interrupt with its message and 130 (contract.md) whenever it
 * comes. A signal is counted as any other; the command then either takes
 * the watcher (`interrupts()`), and finds itself interrupted from the
 * start, or does not and releases the signals (`releaseSignals`).
 */
export function watchSignals(): void {
  shared ??= createWatcher();
}

/** The watcher, for a command that runs work and ends itself when interrupted. */
export function interrupts(): Interrupts {
  shared ??= createWatcher();
  return shared;
}

/**
 * For a command that does not watch interrupts (a listing, `doctor`): the
 * signals get their default action back, so Ctrl-C ends it at once; one
 * that arrived while the command line loaded is raised again now.
 */
export function releaseSignals(): void {
  for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  handlers.clear();
  const early = shared?.cause;
  if (early === "SIGINT" || early === "SIGTERM" || early === "SIGHUP") process.kill(process.pid, early);
}

function createWatcher(): Interrupts {
  const escalation = new TurnInterrupts();
  const listeners = new Set<(cause: InterruptCause, count: number) => void>();
  let cause: InterruptCause | undefined;
  const exitCode = (): number =>
    cause === "stdout-closed" ? STDOUT_CLOSED_EXIT : cause === "timeout" ? LIMIT_EXIT : INTERRUPTED_EXIT;

  const interrupt = (next: InterruptCause): void => {
    cause ??= next;
    // A time limit aborts with its own reason: the sessions record a limit, not the user (engine/run-limits.ts).
    if (escalation.press(next === "timeout" ? timeLimitAbort() : undefined) === "hard") process.exit(exitCode());
    for (const listener of [...listeners]) listener(next, escalation.presses);
  };
  for (const signal of SIGNALS) {
    const handler = () => interrupt(signal);
    handlers.set(signal, handler);
    process.on(signal, handler);
  }

  return {
    signal: escalation.signal,
    finalSignal: escalation.finalSignal,
    get interrupted() {
      return escalation.presses > 0;
    },
    get count() {
      return escalation.presses;
    },
    get cause() {
      return cause;
    },
    get exitCode() {
      return exitCode();
    },
    interrupt,
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
