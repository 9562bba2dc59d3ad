/** Host side: a discovery lane, one worker loading several modules one after another. */
import type { ModuleShape } from "../types.ts";
import type { InspectListMessage, WorkerMessage } from "../worker-messages.ts";
import { endContextWorker, type ContextWorker } from "./worker-call.ts";

/** How looking at one module of a lane ended. */
export type LaneOutcome = { kind: "inspected"; shape: ModuleShape } | { kind: "load-failed"; message: string };

/** How a lane's list ended; `at` is the position in the list of the module concerned. */
export type LaneEnd =
  /** Every module was loaded; `changed`: the world after the last differs from before the first. */
  | { kind: "listed"; changed: boolean }
  /** The world had changed before the module at `at`: it and the rest were not loaded. */
  | { kind: "tainted"; at: number }
  /** The worker died while the module at `at` loaded (process.exit, an uncaught error). */
  | { kind: "crashed"; at: number; message: string }
  /** The module at `at` did not finish loading in time. */
  | { kind: "timeout"; at: number }
  /** Interrupted while the module at `at` loaded. */
  | { kind: "interrupted"; at: number };

/** What a lane reported: the outcome of each module it got to, in list order, and how it ended. */
export interface LaneResult {
  outcomes: LaneOutcome[];
  end: LaneEnd;
}

/**
 * Discovery loads many modules (20 tools: 20 workers to boot, ~2 ms of CPU
 * each on two cores). A lane is one worker given a list: it loads the
 * modules one after another and reports each as it goes, so the host knows
 * which one is loading (the one after the last reported): a module that
 * hangs or ends the worker is named, and the lane ends there. Loading is not
 * calling: no `ctx` exists in a lane, and the worker ends with its list.
 * The timeout counts for each module from the report of the one before.
 */
export function runInspectLane(
  fresh: ContextWorker,
  modulePaths: readonly string[],
  options: { timeoutMs: number; signal: AbortSignal; compareEach: boolean },
): Promise<LaneResult> {
  const { worker } = fresh;
  const outcomes: LaneOutcome[] = [];
  return new Promise<LaneResult>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const finish = (end: LaneEnd) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      // What the modules started while loading ends with the lane (context-processes.ts).
      endContextWorker(fresh, true);
      resolve({ outcomes, end });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ kind: "timeout", at: outcomes.length }), options.timeoutMs);
    };
    const onAbort = () => finish({ kind: "interrupted", at: outcomes.length });
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const data = event.data;
      switch (data.kind) {
        case "inspected":
          if (!("index" in data)) return;
          outcomes.push({ kind: "inspected", shape: data.shape });
          return arm();
        case "load-failed":
          if (!("index" in data)) return;
          outcomes.push({ kind: "load-failed", message: data.message });
          return arm();
        case "tainted":
          return finish({ kind: "tainted", at: data.index });
        case "listed":
          return finish({ kind: "listed", changed: data.changed });
        default:
          return;
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      finish({ kind: "crashed", at: outcomes.length, message: `the context failed: ${event.message}` });
    };
    worker.addEventListener("close", () =>
      finish({ kind: "crashed", at: outcomes.length, message: "the module ended its context" }),
    );
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener("abort", onAbort, { once: true });
    worker.postMessage({
      kind: "inspect-list",
      modulePaths: [...modulePaths],
      compareEach: options.compareEach,
      buffer: fresh.buffer,
    } satisfies InspectListMessage);
    arm();
  });
}
