/**
 * The messages between the host and a context worker, defined once. The
 * worker entry (`invoke-worker.ts`) may import types only (erased at build:
 * a real import would be paid by every spawn); the host side
 * (`worker-call.ts`, `inspect-lane.ts`, `realm-helper.ts`) uses the same.
 */
import type { ContextData, ModuleShape } from "./types.ts";

/** Calls an export of a module (`invoke`), or loads a module to look at it (`inspect`). */
export interface CallMessage {
  kind: "call";
  mode: "invoke" | "inspect";
  modulePath: string;
  exportName?: string;
  args?: unknown[];
  /** The call's `ctx` data (an inspection has no ctx). */
  data?: ContextData;
  /** The bridge buffer: present when the message goes to a worker (a realm's helper has its own). */
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
  buffer: SharedArrayBuffer;
}

export type HostMessage = CallMessage | InspectListMessage;

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

export type WorkerMessage = CallReply | ListReply;
