/** Host side: discovery, many modules looked at in a few lanes of workers (Runtime.inspectAll). */
import { runInspectLane } from "./inspect-lane.ts";
import type { InspectOutcome } from "../types.ts";
import type { ContextWorker } from "./worker-call.ts";

/**
 * Discovery lanes: workers that each load a share of the modules one after
 * another. A worker per module boots 20 workers for 20 tools (about 2 ms of
 * CPU each): start to first request with 20 tools declared measured 72-77 ms
 * that way against 36-41 ms with two lanes, which measured best on two
 * cores (docs/design/runtime-history.md, issue 29).
 */
const INSPECT_LANES = 2;

/** What the lanes need of the runtime. */
export interface LaneHost {
  spawnWorker(): ContextWorker;
  timeoutMs: number;
  /** Ends every lane (the runtime's interrupt or close). */
  signal: AbortSignal;
  closed(): boolean;
  /** After each lane's worker: a module's process.chdir() or umask() lasts for its own load only. */
  restoreProcessState(): void;
  /** One module alone in a fresh worker (Runtime.inspect). */
  inspectAlone(modulePath: string): Promise<InspectOutcome>;
}

/** Every module's outcome, in input order. */
export async function inspectInLanes(modulePaths: readonly string[], host: LaneHost): Promise<InspectOutcome[]> {
  const out: InspectOutcome[] = new Array(modulePaths.length);
  // Interleaved, so that lanes get alike shares of a list sorted by name.
  const lanes = Math.min(INSPECT_LANES, modulePaths.length);
  const shares = Array.from({ length: lanes }, (_, l) => modulePaths.map((_, i) => i).filter((i) => i % lanes === l));
  await Promise.all(shares.map((indices) => lane(modulePaths, indices, host, out)));
  return out;
}

/**
 * Looks at the modules at `indices` in a lane, one after another, writing
 * their outcomes into `out`: the world is compared once, after the last (no
 * module changes it, as a rule). When it changed, the modules after the
 * first are looked at again, comparing before each, and each change starts
 * a new worker.
 */
async function lane(
  modulePaths: readonly string[],
  indices: number[],
  host: LaneHost,
  out: InspectOutcome[],
): Promise<void> {
  const timeoutFailure = {
    kind: "load-failed",
    message: `the module did not finish loading within ${host.timeoutMs} ms`,
  } as const;
  let rest = indices;
  let compareEach = false;
  while (rest.length > 0) {
    if (host.closed() || host.signal.aborted) {
      for (const i of rest) out[i] = { kind: "interrupted" };
      return;
    }
    const { outcomes, end } = await runInspectLane(
      host.spawnWorker(),
      rest.map((i) => modulePaths[i]!),
      { timeoutMs: host.timeoutMs, signal: host.signal, compareEach },
    );
    host.restoreProcessState();
    outcomes.forEach((outcome, at) => {
      out[rest[at]!] = outcome.kind === "inspected" ? { kind: "loaded", shape: outcome.shape } : outcome;
    });
    switch (end.kind) {
      case "listed":
        if (!end.changed) return;
        rest = rest.slice(1);
        compareEach = true;
        break;
      case "tainted":
        rest = rest.slice(end.at);
        break;
      case "timeout":
        out[rest[end.at]!] = timeoutFailure;
        rest = rest.slice(end.at + 1);
        break;
      case "crashed":
        // Alone in a fresh worker, its own outcome (what ended the lane may
        // have been left behind by a module loaded before it).
        out[rest[end.at]!] = await host.inspectAlone(modulePaths[rest[end.at]!]!);
        rest = rest.slice(end.at + 1);
        break;
      case "interrupted":
        for (const i of rest.slice(end.at)) out[i] = { kind: "interrupted" };
        return;
    }
  }
}
