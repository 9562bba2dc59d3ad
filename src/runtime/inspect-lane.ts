import type { ModuleShape } from "./types.ts";
import type { CallMessage, WorkerMessage } from "./worker-messages.ts";
import type { FreshWorker } from "./worker-pool.ts";

/** How looking at one module in a lane ended. */
export type LaneReply =
  | { kind: "inspected"; shape: ModuleShape }
  | { kind: "load-failed"; message: string }
  /** The worker died while this module loaded (process.exit, an uncaught error): the lane is over. */
  | { kind: "crashed"; message: string }
  /** The module did not finish loading in time: the lane is over. */
  | { kind: "timeout" }
  /** An earlier module of the lane changed what this one would see; it was not loaded: the lane is over. */
  | { kind: "tainted" }
  | { kind: "interrupted" };

/** One worker that loads modules one after another, for discovery only. */
export interface InspectLane {
  /** `moreMayFollow`: whether this lane will likely be asked for another module after this one. */
  inspect(modulePath: string, timeoutMs: number, signal: AbortSignal, moreMayFollow?: boolean): Promise<LaneReply>;
  /** Terminates the worker. */
  close(): void;
}

/**
 * Discovery loads many modules (20 tools: 20 workers to boot, ~2 ms of CPU
 * each on two cores). A lane boots one worker and loads modules in it one
 * at a time, each on request, so the host always knows which module is
 * loading: a module that hangs or kills the worker is named, and the lane
 * ends there. Loading is not calling: no `ctx` exists in a lane, and the
 * worker never runs an invocation afterwards.
 */
export function openInspectLane(fresh: FreshWorker, onClose: () => void): InspectLane {
  const { worker } = fresh;
  let pending: ((reply: LaneReply) => void) | undefined;
  let first = !fresh.prepared;
  let closed = false;
  // Set when the worker failed between two modules (a timer of a module loaded earlier threw).
  let failed: LaneReply | undefined;

  const answer = (reply: LaneReply) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(reply);
  };
  const fail = (reply: LaneReply) => {
    if (pending) answer(reply);
    else failed ??= reply;
  };
  worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
    const data = event.data;
    if (data.kind === "inspected") answer({ kind: "inspected", shape: data.shape });
    else if (data.kind === "load-failed" || data.kind === "threw") answer({ kind: "load-failed", message: data.message });
    else if (data.kind === "tainted") answer({ kind: "tainted" });
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    fail({ kind: "crashed", message: `the context failed: ${event.message}` });
  };
  worker.addEventListener("close", () => fail({ kind: "crashed", message: "the module ended its context" }));

  const close = () => {
    if (closed) return;
    closed = true;
    answer({ kind: "interrupted" });
    worker.terminate();
    onClose();
  };

  return {
    inspect(modulePath, timeoutMs, signal, moreMayFollow = true) {
      if (closed || signal.aborted) return Promise.resolve({ kind: "interrupted" });
      if (failed) return Promise.resolve(failed);
      return new Promise<LaneReply>((resolve) => {
        const timer = setTimeout(() => answer({ kind: "timeout" }), timeoutMs);
        const onAbort = () => answer({ kind: "interrupted" });
        signal.addEventListener("abort", onAbort, { once: true });
        pending = (reply) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(reply);
        };
        const message: CallMessage = { kind: "call", mode: "inspect", modulePath, moreMayFollow };
        worker.postMessage(first ? { ...message, buffer: fresh.buffer } : message);
        first = false;
      });
    },
    close,
  };
}
