/** Host side: a worker of its own for one call or inspection (the plain context design), run to its one reply; where the worker entries are. */
import { createBridgeBuffer, HEADER_BYTES, INITIAL_BYTES } from "../bridge-layout.ts";
import { endContextProcesses, stopContextSpawns } from "./context-processes.ts";
import type { BridgeServer } from "./serve-bridge.ts";
import type { CallMessage, CallReply } from "../worker-messages.ts";

/** A worker nobody has used, and the bridge buffer it gets with its one message. */
export interface ContextWorker {
  worker: Worker;
  buffer: SharedArrayBuffer;
}

/** How a worker's call ended, as the host saw it. */
export type WorkerOutcome = CallReply | { kind: "interrupted" } | { kind: "crashed"; message: string };

/** A runtime's way to start workers from the entry at `url`; what a worker started ends once it is gone. */
export function contextWorkers(url: URL): () => ContextWorker {
  const buffers = createBufferStore();
  return () => {
    const worker = new Worker(url.href, { type: "module" } as WorkerOptions);
    const buffer = buffers.take();
    // Only once the worker is gone for good can nothing write into its buffer
    // anymore: a process it started while it was being ended is ended now.
    worker.addEventListener("close", () => {
      endContextProcesses(buffer);
      buffers.give(buffer);
    });
    return { worker, buffer };
  };
}

/**
 * Posts `message` to a fresh worker and settles on its one reply, a crash
 * or an abort of `signal`; the worker is ended then, whichever way, with
 * every process it started. `serve` starts the host end of the `ctx`
 * bridge over the worker's buffer right after the call is posted, while
 * the worker boots (a request written before it runs is still seen: the
 * bridge looks at the state word first).
 */
export function runWorkerCall(
  fresh: ContextWorker,
  message: CallMessage,
  signal: AbortSignal,
  serve?: (buffer: SharedArrayBuffer) => BridgeServer,
): Promise<WorkerOutcome> {
  return new Promise((resolve) => {
    const { worker, buffer } = fresh;
    let bridge: BridgeServer | undefined;
    let settled = false;
    const settle = (outcome: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      // A worker that answered parks (it runs nothing more); any other may
      // still run, and is ended before its bridge closes (a context woken by
      // the close gets an interruption error, but it must not run on at all).
      endContextWorker(fresh, !("parks" in outcome && outcome.parks === true));
      bridge?.close();
      resolve(outcome);
    };
    const onAbort = () => {
      bridge?.interrupt();
      settle({ kind: "interrupted" });
    };
    worker.onmessage = (event: MessageEvent<CallReply>) => settle(event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      settle({ kind: "crashed", message: `the context failed: ${firstLine(event.message)}` });
    };
    worker.addEventListener("close", (event: Event) =>
      settle({ kind: "crashed", message: exitMessage((event as Event & { code?: number }).code) }),
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      worker.postMessage({ ...message, buffer } satisfies CallMessage);
    } catch (error) {
      // Arguments that cannot be cloned (a function, a symbol): the call cannot start.
      settle({ kind: "crashed", message: argumentsNotPassed(error) });
      return;
    }
    bridge = serve?.(buffer);
  });
}

/**
 * Ends a context worker and every process it started. One that may still
 * run is first told to start no more, and waited for while it records one
 * it is starting (stopContextSpawns).
 */
export function endContextWorker(fresh: ContextWorker, mayStillRun: boolean): void {
  if (mayStillRun) stopContextSpawns(fresh.buffer);
  fresh.worker.terminate();
  endContextProcesses(fresh.buffer);
}

/** Why a call whose arguments cannot be copied into a context (a function, a symbol) did not start. */
export function argumentsNotPassed(error: unknown): string {
  return `the arguments cannot be passed to the context: ${error instanceof Error ? error.message : String(error)}`;
}

/** At most this many bridge buffers wait to be used again. */
const KEPT_BUFFERS = 16;

/**
 * Bridge buffers of ended workers, used again. Measured with Bun 1.4: every
 * growable SharedArrayBuffer that may grow to 1 GiB leaves about 10 KB of
 * RSS behind when it is freed (10,000 invocations: +97 MB), whatever it
 * held; one that is used again costs nothing more. A buffer that grew is
 * not kept (it would hold its memory), nor more than KEPT_BUFFERS.
 */
function createBufferStore(): { take(): SharedArrayBuffer; give(buffer: SharedArrayBuffer): void } {
  const free: SharedArrayBuffer[] = [];
  return {
    take: () => free.pop() ?? createBridgeBuffer(),
    give(buffer) {
      if (buffer.byteLength !== INITIAL_BYTES || free.length >= KEPT_BUFFERS) return;
      // A fresh start: state IDLE, no interrupt, no payload.
      new Uint8Array(buffer, 0, HEADER_BYTES).fill(0);
      free.push(buffer);
    },
  };
}

/**
 * Where a worker entry is (`invoke-worker.ts` unless named). From source it
 * is in ../context/. In a `bun build --compile` binary every bundled
 * module reports the binary's own URL at the root of the embedded tree (the
 * root being src/, the common folder of the entry points), and the worker
 * is embedded under that root with its source-relative path.
 */
export function workerUrl(
  here: string = import.meta.url,
  entry: "invoke-worker.ts" | "realm-helper-worker.ts" = "invoke-worker.ts",
): URL {
  const compiled = here.includes("/$bunfs/") || here.includes("/~BUN/");
  return compiled ? new URL(`./runtime/context/${entry}`, here) : new URL(`../context/${entry}`, here);
}

/** Error events carry a source excerpt after the first line; the first line says what happened. */
export function firstLine(message: unknown): string {
  const lines = String(message ?? "")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const error = lines.find((l) => /^(error|\w*Error|BuildMessage|ResolveMessage)\b/.test(l.trim()));
  return (error ?? lines[0] ?? "unknown error").trim();
}

/** What a worker that ended on its own (process.exit in the module) means for the call. */
export function exitMessage(code: number | undefined): string {
  return `the module ended its context (process.exit${code === undefined ? "" : `(${code})`})`;
}
