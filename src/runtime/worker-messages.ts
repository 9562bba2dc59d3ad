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
}

/**
 * A discovery lane: loads the modules one after another, without a turn of
 * the event loop between them, and reports each (`ListReply`, in order);
 * the worker does nothing else afterwards.
 */
export interface InspectListMessage {
  kind: "inspect-list";
  modulePaths: string[];
  /**
   * Whether the world (see the worker's WorldGuard) is compared before each
   * module after the first, stopping at the first change (`tainted`), or
   * only once, after the last (`listed` says whether it changed).
   */
  compareEach: boolean;
  /** Present when the worker was not prepared. */
  buffer?: SharedArrayBuffer;
}

export type HostMessage = PrepareMessage | DataMessage | CallMessage | InspectListMessage;

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
) & {
  /** The worker runs nothing more and blocks until ended, so the host may end it later. */
  parks?: boolean;
};

/** What a discovery lane reports, in order: each module of its list, then how the list ended. */
export type ListReply =
  | { kind: "inspected"; index: number; shape: ModuleShape }
  | { kind: "load-failed"; index: number; message: string }
  /** Compared before module `index`, the world had changed: that module and the rest were not loaded. */
  | { kind: "tainted"; index: number }
  /** Every module was loaded; `changed`: the world differed after the last from before the first. */
  | { kind: "listed"; changed: boolean };

export type WorkerMessage = ReadyReply | CallReply | ListReply;
