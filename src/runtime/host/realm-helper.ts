/**
 * The host's end of the realm helper (realm-helper-worker.ts): one worker
 * that runs calls one at a time, each in a new ShadowRealm. It is booted
 * when calls are expected (its boot costs more than a worker's, its calls
 * far less), serves one call at a time, and is replaced:
 * - after an interrupt (a busy call is stopped by ending the helper, as a
 *   busy worker is) or a `process.exit` in a module (which ends it);
 * - when it asks to be (what calls left alive, a promise callback that
 *   never runs holding its realm, passed a limit: realm-helper-worker.ts),
 *   or its bridge grew (a large file or body), by a successor booted then;
 * - after RECYCLE_AFTER calls, by a successor booted a little before, in
 *   case what a realm leaves behind is outside the heap the helper watches
 *   (none was seen: a helper stayed flat over 6,000 calls).
 *
 * Only where `ShadowRealm` exists (Bun); elsewhere (Deno) every call keeps
 * a worker of its own.
 */
import {
  CONTROL_DOORBELL,
  CONTROL_HEADER_BYTES,
  CONTROL_LENGTH,
  createBridgeBuffer,
  GROUP_COUNT,
  GROUPS_ENDED,
  IDLE,
  INTERRUPT,
  NONCE_LENGTH,
  SPAWNING,
  STATE,
} from "../bridge-layout.ts";
import { endContextProcesses, stopContextSpawns } from "./context-processes.ts";
import { createValueCodec } from "../context/context-values.ts";
import type { BridgeServer } from "./serve-bridge.ts";
import { argumentsNotPassed, exitMessage, firstLine } from "./worker-call.ts";
import type { CallMessage, CallReply } from "../worker-messages.ts";

/**
 * How a call in the helper ended. "unavailable": no realm could run it (the
 * helper did not start, or could not set a realm up), and nothing of the
 * call ran: the caller runs it elsewhere.
 */
export type RealmReply =
  | CallReply
  | { kind: "interrupted" }
  | { kind: "crashed"; message: string }
  | { kind: "unavailable"; message: string };

export interface RealmHelpers {
  /** Whether a call can start in a realm now: the helper is booted or booting, and runs no call. */
  available(): boolean;
  /** Boots the helper, if it is not booted yet, so that the next calls find it ready. */
  prepare(): void;
  /**
   * Runs one call in a new realm. `serve` starts the host end of its ctx
   * bridge over the buffer given; `signal` interrupts it.
   */
  run(
    message: CallMessage,
    serve: (buffer: SharedArrayBuffer) => BridgeServer,
    signal: AbortSignal,
  ): Promise<RealmReply>;
  /** Resolves once a prepared helper is ready (at once when none was asked for). */
  settled(): Promise<void>;
  close(): void;
}

interface Helper {
  worker: Worker & { ref?(): void; unref?(): void };
  buffer: SharedArrayBuffer;
  control: SharedArrayBuffer;
  ready: Promise<boolean>;
  calls: number;
  /** Gets the helper's next message: the reply of the call in flight, or how the helper ended. */
  onEvent?: (reply: RealmReply) => void;
  gone: boolean;
  /** The nonce of the call in flight ("" when none runs): see realm-helper-worker.ts. */
  nonce: string;
  /** Asked to be replaced (see retire). */
  retiring?: boolean;
}

/**
 * A helper whose bridge buffer grew beyond this is replaced after its call
 * (see run). A choice, not a measurement: 64 times the 64 KiB a buffer
 * starts with, so only a large file, body or argument costs a new helper.
 */
const KEPT_BRIDGE_BYTES = 4 * 1024 * 1024;

/**
 * Calls a helper runs before it is replaced, and how many before that its
 * successor boots. Measured: a helper stayed flat over 6,000 calls;
 * replacing it every 1,000 calls cost 3-5 MB more RSS and about 9 MB
 * around each hand-over (docs/design/runtime-history.md).
 */
const RECYCLE_AFTER = 10_000;
const RECYCLE_AHEAD = 50;

/** NONCE_LENGTH hex digits from the system's random source. */
function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_LENGTH / 2));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Whether this runtime has ShadowRealms that can run a context (Bun does; Deno does not). */
export function realmsAvailable(): boolean {
  return (
    typeof (globalThis as { ShadowRealm?: unknown }).ShadowRealm === "function" &&
    typeof (globalThis as { Bun?: unknown }).Bun === "object"
  );
}

export function createRealmHelpers(url: URL): RealmHelpers {
  const codec = createValueCodec();
  const encoder = new TextEncoder();
  let helper: Helper | undefined;
  let successor: Helper | undefined;
  let busy = false;
  let closed = false;

  const boot = (): Helper => {
    const worker = new Worker(url.href, { type: "module" } as WorkerOptions) as Helper["worker"];
    worker.unref?.();
    const h: Helper = {
      worker,
      buffer: createBridgeBuffer(),
      control: createBridgeBuffer(),
      ready: Promise.resolve(false),
      calls: 0,
      gone: false,
      nonce: "",
    };
    const ended = (reply: RealmReply) => {
      if (h.gone) return;
      h.gone = true;
      if (helper === h) helper = undefined;
      if (successor === h) successor = undefined;
      // Processes the call started end with it, whichever way it ended.
      endContextProcesses(h.buffer);
      const onEvent = h.onEvent;
      h.onEvent = undefined;
      onEvent?.(reply);
    };
    h.ready = new Promise<boolean>((resolve) => {
      worker.onmessage = (
        event: MessageEvent<{ kind?: unknown; nonce?: unknown; text?: unknown; secret?: unknown } | null>,
      ) => {
        const data = event.data;
        if (data?.kind === "ready") return resolve(true);
        // Its heap holds what calls left alive (see realm-helper-worker.ts): a new helper takes over.
        if (data?.kind === "retire" && data.secret === secret) return retire(h);
        // Anything else a realm may post itself: only the reply with this call's nonce counts.
        if (data?.kind !== "reply" || h.nonce === "" || data.nonce !== h.nonce) return;
        h.nonce = "";
        const onEvent = h.onEvent;
        h.onEvent = undefined;
        onEvent?.(readReply(String(data.text)));
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        resolve(false);
        ended({ kind: "crashed", message: `the context failed: ${firstLine(event.message)}` });
        worker.terminate();
      };
      worker.addEventListener("close", (event: Event) => {
        // Only once the helper is gone for good can nothing write into its buffer anymore.
        endContextProcesses(h.buffer);
        resolve(false);
        ended({ kind: "crashed", message: exitMessage((event as Event & { code?: number }).code) });
      });
    });
    const secret = newNonce();
    worker.postMessage({ kind: "init", buffer: h.buffer, control: h.control, secret });
    return h;
  };

  const readReply = (text: string): RealmReply => {
    try {
      return codec.decode(text) as RealmReply;
    } catch {
      return { kind: "threw", message: "the context's answer could not be read" };
    }
  };

  const end = (h: Helper) => {
    if (helper === h) helper = undefined;
    if (successor === h) successor = undefined;
    h.gone = true;
    h.worker.terminate();
  };

  const current = (): Helper => {
    if (!helper) {
      helper = successor ?? boot();
      successor = undefined;
    }
    return helper;
  };

  /** The helper asked to be replaced: its successor boots now, and takes over once no call runs in it. */
  const retire = (h: Helper) => {
    if (h.gone || closed) return;
    h.retiring = true;
    if (helper !== h) return end(h);
    if (!successor) successor = boot();
    if (!busy) handOver(h);
  };

  const handOver = (h: Helper) => {
    end(h);
    helper = successor;
    successor = undefined;
  };

  /** Counts a finished call; hands over to the successor when the helper has run its share or asked to go. */
  const count = (h: Helper) => {
    h.calls++;
    if (h.retiring && helper === h) return handOver(h);
    if (h.calls === RECYCLE_AFTER - RECYCLE_AHEAD && !successor && !closed) successor = boot();
    if (h.calls >= RECYCLE_AFTER && helper === h) {
      end(h);
      helper = successor;
      successor = undefined;
    }
  };

  /** The request into the control buffer, then the bell. */
  const ring = (h: Helper, request: string) => {
    h.nonce = newNonce();
    const bytes = encoder.encode(h.nonce + request);
    const needed = CONTROL_HEADER_BYTES + bytes.length;
    if (needed > h.control.byteLength) {
      const growable = h.control as SharedArrayBuffer & { grow(n: number): void; maxByteLength: number };
      if (needed > growable.maxByteLength)
        throw new RangeError(`the call's arguments are too large (${bytes.length} bytes)`);
      growable.grow(needed);
    }
    new Uint8Array(h.control, CONTROL_HEADER_BYTES, bytes.length).set(bytes);
    const bell = new Int32Array(h.control, 0, 2);
    Atomics.store(bell, CONTROL_LENGTH, bytes.length);
    Atomics.store(bell, CONTROL_DOORBELL, 1);
    Atomics.notify(bell, CONTROL_DOORBELL);
  };

  /** A fresh start for the call's bridge: no request, no interrupt, no process recorded. */
  const resetBridge = (buffer: SharedArrayBuffer) => {
    const words = new Int32Array(buffer, 0, 8);
    for (const index of [STATE, INTERRUPT, GROUP_COUNT, GROUPS_ENDED, SPAWNING])
      Atomics.store(words, index, index === STATE ? IDLE : 0);
  };

  return {
    available: () => !closed && !busy && helper !== undefined && !helper.gone,

    prepare() {
      if (!closed && !busy) current();
    },

    async run(message, serve, signal) {
      busy = true;
      try {
        let h = current();
        if (!(await h.ready)) {
          // It failed to start: once more, with a new one.
          h = current();
          if (!(await h.ready)) return { kind: "unavailable", message: "the realm helper could not start" };
        }
        if (signal.aborted) return { kind: "interrupted" };
        // Ended since it was ready (by an interrupt of another call, or close): nothing would answer.
        if (h.gone) return { kind: "crashed", message: "the context ended before the call started" };
        let request: string;
        try {
          request = codec.encode(message);
        } catch (error) {
          return { kind: "crashed", message: argumentsNotPassed(error) };
        }
        resetBridge(h.buffer);
        h.worker.ref?.();
        const bridge = serve(h.buffer);
        try {
          return await new Promise<RealmReply>((resolve) => {
            const onAbort = () => {
              h.onEvent = undefined;
              bridge.interrupt();
              // A busy call is stopped by ending its helper; processes it is starting are waited for first.
              stopContextSpawns(h.buffer);
              end(h);
              endContextProcesses(h.buffer);
              resolve({ kind: "interrupted" });
            };
            h.onEvent = (reply) => {
              signal.removeEventListener("abort", onAbort);
              resolve(reply);
            };
            signal.addEventListener("abort", onAbort, { once: true });
            try {
              ring(h, request);
            } catch (error) {
              h.onEvent = undefined;
              signal.removeEventListener("abort", onAbort);
              resolve({ kind: "crashed", message: error instanceof Error ? error.message : String(error) });
            }
          });
        } finally {
          bridge.close();
          endContextProcesses(h.buffer);
          h.worker.unref?.();
          if (!h.gone) count(h);
          // A bridge grown for a large file, body or arguments would keep that memory for the helper's life: a new helper takes over.
          if (!h.gone && Math.max(h.buffer.byteLength, h.control.byteLength) > KEPT_BRIDGE_BYTES) end(h);
        }
      } finally {
        busy = false;
      }
    },

    async settled() {
      if (helper) await helper.ready;
    },

    close() {
      closed = true;
      if (helper) end(helper);
      if (successor) end(successor);
    },
  };
}
