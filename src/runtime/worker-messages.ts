/**
 * The messages between the host and a context worker, defined once. The
 * worker entry (`invoke-worker.ts`) may import types only (erased at build:
 * a real import would be paid by every spawn); the host side
 * (`create-runtime.ts`, `worker-pool.ts`, `inspect-lane.ts`) uses the same.
 */
import type { ContextData, ModuleShape } from "./types.ts";

/** Sent to a spare as soon as it is spawned. */
export interface PrepareMessage {
  kind: "prepare";
  buffer: SharedArrayBuffer;
  /** True for a spare, which has time to spend on warming up. */
  warm: boolean;
  /** The `ctx` data the next call is expected to use. */
  data?: ContextData;
}

/** The expected `ctx` data changed while the spare waited. */
export interface DataMessage {
  kind: "data";
  data: ContextData;
}

/** Calls an export of a module (`invoke`), or loads a module to look at it (`inspect`). */
export interface CallMessage {
  kind: "call";
  mode: "invoke" | "inspect";
  modulePath: string;
  exportName?: string;
  args?: unknown[];
  /** Absent when the worker was prepared with the right data. */
  data?: ContextData;
  /** Present when the worker was not prepared (spawned for this call). */
  buffer?: SharedArrayBuffer;
  /**
   * Inspect only: this worker may load more modules after this one (a
   * discovery lane), so it records the world first (costs 2-5 ms); a worker
   * that did not refuses a second module ("tainted").
   */
  moreMayFollow?: boolean;
}

export type HostMessage = PrepareMessage | DataMessage | CallMessage;

/** A spare finished preparing. */
export interface ReadyReply {
  kind: "ready";
}

/** How one call or inspection ended, as the worker reports it. */
export type CallReply = (
  | { kind: "returned"; value: unknown; type: string }
  | { kind: "threw"; message: string }
  | { kind: "load-failed"; message: string }
  | { kind: "inspected"; shape: ModuleShape }
  /** A discovery lane refused to load the next module: an earlier one changed what it would see. */
  | { kind: "tainted" }
) & {
  /** The worker runs nothing more and blocks until ended, so the host may end it later. */
  parks?: boolean;
};

export type WorkerMessage = ReadyReply | CallReply;
