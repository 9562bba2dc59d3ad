/**
 * Stops a model that keeps repeating itself: the same tool calls with the
 * same results, round after round (contract.md §5: 3 identical rounds).
 */

/** How many identical consecutive rounds end the run. */
export const IDENTICAL_ROUNDS_LIMIT = 3;

/** Tracks consecutive identical rounds of tool calls and results. */
export class LoopGuard {
  #last = "";
  #count = 0;

  /** Records a round; returns true when it is the limit-th identical one in a row. */
  record(round: { name: string; arguments: unknown; text: string; isError: boolean }[]): boolean {
    const signature = JSON.stringify(round);
    if (signature === this.#last) this.#count++;
    else [this.#last, this.#count] = [signature, 1];
    return this.#count >= IDENTICAL_ROUNDS_LIMIT;
  }
}
