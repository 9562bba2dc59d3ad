/**
 * The time limit of `rienda run` (`--timeout`, an agent's or config.yaml's
 * `timeout`): when it runs out, the run ends as an interrupt ends it (tools
 * and their process groups stopped, the session consistent and
 * continuable), with reason `timeout` and exit 3. It counts from the start
 * of the command, whichever setting imposed it.
 */
import type { Limit } from "../../engine/index.ts";
import { RiendaError } from "../../errors.ts";
import { durationText, parseDuration, type LimitSettings } from "../../limits/index.ts";
import type { Interrupts } from "../shared/interrupts.ts";

/** The running clock of one run. */
export interface RunTimer {
  /** Sets the limit (the first one set wins: the command line's comes first). */
  set(limit: Limit): void;
  /** The message of the run's end, once the limit ran out first. */
  readonly expired: string | undefined;
  stop(): void;
}

/** Starts the clock; nothing fires until a limit is set. */
export function startRunTimer(watcher: Interrupts, now: () => number = Date.now): RunTimer {
  const started = now();
  let handle: ReturnType<typeof setTimeout> | undefined;
  let limit: Limit | undefined;
  let expired: string | undefined;
  return {
    set(next) {
      if (limit) return;
      limit = next;
      const fire = (): void => {
        if (watcher.interrupted) return;
        expired = `the run reached its time limit of ${durationText(next.value)} (${next.setting})`;
        watcher.interrupt("timeout");
      };
      const left = started + next.value - now();
      if (left <= 0) fire();
      // unref: a timer must not keep a finished command alive.
      else (handle = setTimeout(fire, left)).unref?.();
    },
    get expired() {
      return expired;
    },
    stop() {
      if (handle) clearTimeout(handle);
    },
  };
}

/** `--max-turns`, `--max-cost`, `--timeout` as given; throws a usage RiendaError for a value that is not one. */
export function limitFlags(parsed: { "max-turns"?: string; "max-cost"?: string; timeout?: string }): LimitSettings {
  const flags: LimitSettings = {};
  const turns = parsed["max-turns"];
  if (turns !== undefined) {
    if (!/^\d+$/.test(turns.trim()) || Number(turns) < 1)
      throw new RiendaError(
        "usage",
        `run: --max-turns must be a whole number of model requests, 1 or more (got "${turns}")`,
      );
    flags.maxTurns = Number(turns);
  }
  const cost = parsed["max-cost"];
  if (cost !== undefined) {
    const dollars = Number(cost.trim().replace(/^\$/, ""));
    if (cost.trim() === "" || !Number.isFinite(dollars) || dollars <= 0)
      throw new RiendaError(
        "usage",
        `run: --max-cost must be an amount of US dollars above 0, such as 0.50 (got "${cost}")`,
      );
    flags.maxCost = dollars;
  }
  if (parsed.timeout !== undefined) {
    const read = parseDuration(parsed.timeout);
    if (!read.ok) throw new RiendaError("usage", `run: --timeout ${read.problem}`);
    flags.timeoutMs = read.ms;
  }
  return flags;
}
