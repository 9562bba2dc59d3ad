/** Setup waits that give way to an interrupt (the CLI's use of abort-race.ts). */
import { ABORTED, raceAbort } from "../abort-race.ts";
import { RiendaError } from "../errors.ts";

/**
 * Waits for `work` unless `signal` is aborted first, then rejects as
 * interrupted (abort-race.ts): work that cannot be cancelled itself must not
 * hold up an interrupt.
 */
export async function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const result = await raceAbort(work, signal);
  if (result === ABORTED) throw new RiendaError("interrupted", "the run was interrupted");
  return result;
}
