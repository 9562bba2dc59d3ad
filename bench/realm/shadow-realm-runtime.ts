/**
 * Prototype (issue 16): the host side of the ShadowRealm design. One helper
 * worker (shadow-realm-worker.ts) runs every call, one at a time, each in a
 * new ShadowRealm; requests go through a shared buffer the helper waits on,
 * since it never returns to its event loop. `ctx` is served from this
 * thread exactly as in the worker design (same bridge, same handler). An
 * interrupt ends the helper (busy or not) and boots a new one for the next call.
 *
 * Not shipped: bench/realm/ compares it with the worker design.
 */
import { createBridgeBuffer } from "../../src/runtime/bridge-layout.ts";
import type { InvokeRequest, Outcome } from "../../src/runtime/types.ts";
import type { HelperRequest } from "./helper-bridge.ts";
import { callMessage, inOrder, inspectionsOf, openCallBridge, outcomeOf, type Reply } from "./helper-host.ts";
import type { RealmRuntime } from "./realm-runtime.ts";
import { CONTROL_DOORBELL, CONTROL_HEADER_BYTES, CONTROL_LENGTH } from "./shadow-realm-control.ts";

interface Helper {
  worker: Worker;
  buffer: SharedArrayBuffer;
  control: SharedArrayBuffer;
  ready: Promise<void>;
  /** Calls it has run. */
  calls: number;
  /** The reply of the request in flight goes here. */
  onReply?: (reply: Reply) => void;
}

/** Calls a helper runs before it is replaced, and how many before that its successor is booted. */
const RECYCLE_AFTER = 1000;
const RECYCLE_AHEAD = 50;

export function createShadowRealmRuntime(): RealmRuntime {
  const url = new URL("./shadow-realm-worker.ts", import.meta.url);
  const encoder = new TextEncoder();
  let helper: Helper | undefined;
  /** The helper that takes over after RECYCLE_AFTER calls, booted a little before. */
  let successor: Helper | undefined;
  // Calls run one at a time in the helper, in order.
  const serialize = inOrder();

  const boot = (): Helper => {
    const worker = new Worker(url.href, { type: "module" } as WorkerOptions);
    (worker as Worker & { unref?(): void }).unref?.();
    const h: Helper = { worker, buffer: createBridgeBuffer(), control: createBridgeBuffer(), ready: Promise.resolve(), calls: 0 };
    h.ready = new Promise<void>((resolve) => {
      worker.onmessage = (event: MessageEvent) => {
        const data = event.data as Reply;
        if (data.kind === "ready") return resolve();
        const onReply = h.onReply;
        h.onReply = undefined;
        onReply?.(data);
      };
    });
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      if (helper === h) helper = undefined;
      h.onReply?.({ kind: "threw", message: `the context failed: ${event.message}` });
    };
    worker.postMessage({ kind: "init", buffer: h.buffer, control: h.control });
    return h;
  };
  const current = () => {
    if (!helper) {
      helper = successor ?? boot();
      successor = undefined;
    }
    return helper;
  };
  // Bun does not give back all a realm loaded, and what calls leave pending
  // stays in the helper's queues (never run): a helper is replaced after
  // RECYCLE_AFTER calls by one booted while the last of them ran.
  const count = (h: Helper) => {
    h.calls++;
    if (h.calls === RECYCLE_AFTER - RECYCLE_AHEAD && !successor) successor = boot();
    if (h.calls >= RECYCLE_AFTER && helper === h && successor) {
      end(h);
      helper = successor;
      successor = undefined;
    }
  };
  const end = (h: Helper) => {
    h.worker.terminate();
    if (helper === h) helper = undefined;
  };

  /** Hands one request to the helper: written into its control buffer, then the bell. */
  const send = (h: Helper, message: HelperRequest) => {
    const bytes = encoder.encode(JSON.stringify(message));
    if (CONTROL_HEADER_BYTES + bytes.length > h.control.byteLength) (h.control as unknown as { grow(n: number): void }).grow(CONTROL_HEADER_BYTES + bytes.length);
    new Uint8Array(h.control, CONTROL_HEADER_BYTES, bytes.length).set(bytes);
    const bell = new Int32Array(h.control, 0, 2);
    Atomics.store(bell, CONTROL_LENGTH, bytes.length);
    Atomics.store(bell, CONTROL_DOORBELL, 1);
    Atomics.notify(bell, CONTROL_DOORBELL);
  };

  const runOne = (message: HelperRequest, request: InvokeRequest | undefined, signal: AbortSignal | undefined): Promise<Reply> => {
    const run = async (): Promise<Reply> => {
      const h = current();
      await h.ready;
      const bridge = openCallBridge(h.buffer, request);
      try {
        return await new Promise<Reply>((resolve) => {
          const onAbort = () => {
            h.onReply = undefined;
            bridge.interrupt();
            // A runaway call is stopped by ending the helper; the next call gets a new one.
            end(h);
            resolve({ kind: "interrupted" });
          };
          if (signal?.aborted) return onAbort();
          signal?.addEventListener("abort", onAbort, { once: true });
          h.onReply = (reply) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(reply);
          };
          send(h, message);
        });
      } finally {
        bridge.close();
        count(h);
      }
    };
    return serialize(run);
  };

  return {
    async invoke(request): Promise<Outcome> {
      return outcomeOf(await runOne(callMessage(request), request, request.context.signal));
    },
    async inspectAll(paths) {
      return inspectionsOf(await runOne({ kind: "inspect-all", paths: [...paths] }, undefined, undefined));
    },
    async settled() {
      await current().ready;
    },
    close() {
      if (helper) end(helper);
      if (successor) end(successor);
      successor = undefined;
    },
  };
}
