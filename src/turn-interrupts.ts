/**
 * The escalation of interrupts during a turn, in one place for every front
 * end (Ctrl-C or Esc in the chats, `abort` over rpc, SIGINT/SIGTERM in
 * `rienda run`): the first aborts the turn (the model stream, tools,
 * setup), the second also cuts its afterRun hooks short, the third asks
 * the front end to leave at once.
 */

/** What a press did: the turn interrupted, its afterRun hooks cut short, or nothing left but a hard exit. */
export type InterruptStep = "interrupt" | "final" | "hard";

/** The two signals of one turn and the presses counted against them. */
export class TurnInterrupts {
  readonly #run = new AbortController();
  readonly #final = new AbortController();
  #presses = 0;

  /** Aborted by the first press: what the turn runs under. */
  get signal(): AbortSignal {
    return this.#run.signal;
  }

  /** Aborted by the second press: the afterRun hooks of an interrupted turn. */
  get finalSignal(): AbortSignal {
    return this.#final.signal;
  }

  /** How many presses so far. */
  get presses(): number {
    return this.#presses;
  }

  /** Counts one press; `reason` is the first abort's (a time limit says so, engine/run-limits.ts). */
  press(reason?: unknown): InterruptStep {
    this.#presses++;
    if (this.#presses === 1) {
      this.#run.abort(reason);
      return "interrupt";
    }
    if (this.#presses === 2) {
      this.#final.abort();
      return "final";
    }
    return "hard";
  }
}
