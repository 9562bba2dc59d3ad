/**
 * What the full-screen chat is doing, as its keys see it (tui-screen.ts):
 * waiting at the editor, running a turn, switching agent or model, or
 * nothing; and what reading the editor gives back.
 */
import { RiendaError } from "../../errors.ts";

/** What one reading of the editor ended with. */
export type Input =
  | { kind: "text"; text: string }
  | { kind: "command"; name: string }
  | { kind: "eof" }
  | { kind: "interrupt"; hadInput: boolean }
  | { kind: "cancelled" };

export type Activity =
  | { kind: "idle" }
  | { kind: "editor"; finish: (input: Input) => void }
  | { kind: "turn"; press: () => void; signal: AbortSignal; queues: boolean }
  | { kind: "switch"; abort: () => void };

/**
 * Rejects as interrupted once `signal` aborts: raced against a switch's
 * work, so that giving up does not wait for work that cannot be cancelled.
 */
export function interruptedOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(new RiendaError("interrupted", "interrupted")), { once: true });
  });
}
