/**
 * Prototype (issue 16): the host side of the node:vm realm design. One
 * long-lived helper worker runs every call, one at a time, each in a new
 * node:vm context (see realm-worker.ts); `ctx` is served from this thread
 * exactly as in the worker design (same bridge, same handler). An interrupt,
 * or a call that does not answer, ends the helper and boots a new one for the
 * next call.
 *
 * Not shipped (the shipped realm design runs ShadowRealms instead, see
 * src/runtime/realm-helper.ts): kept so bench/realm/ can compare the two.
 */
import { createBridgeBuffer } from "../../src/runtime/bridge-layout.ts";
import type { InspectOutcome, InvokeRequest, Outcome } from "../../src/runtime/types.ts";
import type { HelperRequest } from "./helper-bridge.ts";
import { callMessage, inOrder, inspectionsOf, openCallBridge, outcomeOf, type Reply } from "./helper-host.ts";

export interface RealmRuntime {
  invoke(request: InvokeRequest): Promise<Outcome>;
  inspectAll(paths: readonly string[]): Promise<InspectOutcome[]>;
  /** Resolves once a helper is booted. */
  settled(): Promise<void>;
  close(): void;
}

interface Helper {
  worker: Worker;
  buffer: SharedArrayBuffer;
  ready: Promise<void>;
}

/** How long a helper may keep running what a call left behind before it is ended (the call's outcome stands). */
const IDLE_WAIT_MS = 100;

export function createRealmRuntime(): RealmRuntime {
  const url = new URL("./realm-worker.ts", import.meta.url);
  let helper: Helper | undefined;
  // Calls run one at a time in the helper, in order.
  const serialize = inOrder();

  const boot = (): Helper => {
    const worker = new Worker(url.href, { type: "module" } as WorkerOptions);
    const buffer = createBridgeBuffer();
    (worker as Worker & { unref?(): void }).unref?.();
    const ready = new Promise<void>((resolve) => {
      worker.onmessage = (event: MessageEvent) => {
        if ((event.data as Reply).kind === "ready") resolve();
      };
    });
    worker.postMessage({ kind: "init", buffer });
    return { worker, buffer, ready };
  };
  const current = () => (helper ??= boot());
  const replace = () => {
    helper?.worker.terminate();
    helper = boot();
  };

  const runOne = (
    message: HelperRequest,
    request: InvokeRequest | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Reply> => {
    const run = async (): Promise<Reply> => {
      const h = current();
      await h.ready;
      const bridge = openCallBridge(h.buffer, request);
      try {
        return await new Promise<Reply>((resolve) => {
          const onAbort = () => {
            bridge.interrupt();
            // A runaway call is stopped by ending the helper; the next call gets a new one.
            replace();
            resolve({ kind: "interrupted" });
          };
          if (signal?.aborted) return onAbort();
          signal?.addEventListener("abort", onAbort, { once: true });
          let reply: Reply | undefined;
          let idleTimer: ReturnType<typeof setTimeout> | undefined;
          h.worker.onmessage = (event: MessageEvent) => {
            const data = event.data as Reply;
            if (data.kind !== "idle") {
              // The call returned; what it left behind may still run: wait for "idle", at most IDLE_WAIT_MS.
              reply = data;
              signal?.removeEventListener("abort", onAbort);
              idleTimer = setTimeout(() => {
                replace();
                resolve(reply!);
              }, IDLE_WAIT_MS);
              return;
            }
            if (idleTimer) clearTimeout(idleTimer);
            if (reply) resolve(reply);
          };
          h.worker.onerror = (event: ErrorEvent) => {
            event.preventDefault();
            signal?.removeEventListener("abort", onAbort);
            replace();
            resolve({ kind: "threw", message: `the context failed: ${event.message}` });
          };
          h.worker.postMessage(message);
        });
      } finally {
        bridge.close();
      }
    };
    return serialize(run);
  };

  return {
    async invoke(request) {
      return outcomeOf(await runOne(callMessage(request), request, request.context.signal));
    },
    async inspectAll(paths) {
      // One message for all (each module still gets a realm of its own); a module that hangs would need the per-module path.
      return inspectionsOf(await runOne({ kind: "inspect-all", paths: [...paths] }, undefined, undefined));
    },
    async settled() {
      await current().ready;
    },
    close() {
      helper?.worker.terminate();
      helper = undefined;
    },
  };
}
