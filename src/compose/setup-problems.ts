/**
 * The refusals a run's setup collects (prepare.ts, prepare-agent.ts), so
 * that one refusal names every problem found rather than the first.
 */
import { isRiendaError, RiendaError } from "../errors.ts";

/**
 * The refusals met while setting a run up. Each check that does not depend
 * on a failed one still runs, so the user fixes everything in one go, as
 * with `rienda doctor`. Only RiendaErrors are collected; anything else is a
 * bug and propagates as it is.
 */
export class SetupProblems {
  readonly #errors: RiendaError[] = [];

  add(error: RiendaError): void {
    this.#errors.push(error);
  }

  /** Whether any refusal was collected, including ones no later step depends on (a continued session's missing workspace). */
  get any(): boolean {
    return this.#errors.length > 0;
  }

  attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (!isRiendaError(error)) throw error;
      this.add(error);
      return undefined;
    }
  }

  async attemptAsync<T>(check: () => Promise<T>): Promise<T | undefined> {
    try {
      return await check();
    } catch (error) {
      if (!isRiendaError(error)) throw error;
      this.add(error);
      return undefined;
    }
  }

  /** Adds a line that only helps beside other problems (it is not a refusal of its own), unless one of them already names `subject`. */
  addHint(hint: RiendaError | undefined, subject: string): void {
    if (hint && this.any && !this.#errors.some((e) => e.message.includes(subject))) this.add(hint);
  }

  /** Throws what was collected: one problem as it is, several as one error listing each on its own line. */
  fail(): never {
    const [first, ...rest] = this.#errors;
    if (!first) throw new RiendaError("internal", "the run could not be set up, for no reason recorded");
    if (rest.length === 0) throw first;
    throw new RiendaError(first.code, this.#errors.map((e) => e.message).join("\n"), { cause: first });
  }
}
