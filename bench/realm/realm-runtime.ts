/**
 * Prototype (issue 16): the host side of the realm design. One long-lived
 * helper worker runs every call, one at a time, each in a new realm (see
 * realm-worker.ts and shadow-realm-worker.ts); `ctx` is served from this thread exactly as in the
 * worker design (same bridge, same handler). An interrupt, or a call that
 * does not answer, ends the helper and boots a new one for the next call.
 *
 * Not shipped: bench/realm/ compares it with the worker design.
 */
import { createBridgeBuffer, IDLE, INTERRUPT, STATE } from "../../src/runtime/bridge-layout.ts";
import { createCtxHandler } from "../../src/runtime/ctx-host.ts";
import { serveBridge } from "../../src/runtime/serve-bridge.ts";
import type { InspectOutcome, InvokeRequest, Outcome } from "../../src/runtime/types.ts";
import { createShadowRealmRuntime } from "./shadow-realm-runtime.ts";

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

type Reply = { kind: string; value?: unknown; type?: string; message?: string; shape?: unknown };

/** Which helper: `node:vm` contexts behind a membrane (realm-worker.ts) or a ShadowRealm per call (shadow-realm-worker.ts). */
export type RealmKind = "vm" | "shadow";

export function createRealmRuntime(kind: RealmKind = "vm"): RealmRuntime {
  if (kind === "shadow") return createShadowRealmRuntime();
  const url = new URL("./realm-worker.ts", import.meta.url);
  let helper: Helper | undefined;
  // Calls run one at a time in the helper; a queue keeps their order.
  let queue: Promise<unknown> = Promise.resolve();

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

  const runOne = (message: Record<string, unknown>, request: InvokeRequest | undefined, signal: AbortSignal | undefined): Promise<Reply> => {
    const run = async (): Promise<Reply> => {
      const h = current();
      await h.ready;
      const words = new Int32Array(h.buffer, 0, 4);
      Atomics.store(words, STATE, IDLE);
      Atomics.store(words, INTERRUPT, 0);
      const controller = new AbortController();
      const bridge = request
        ? serveBridge(h.buffer, createCtxHandler({ workdir: request.context.data.workdir, frontEnd: request.context.frontEnd, signal: controller.signal }))
        : undefined;
      try {
        return await new Promise<Reply>((resolve) => {
          const onAbort = () => {
            bridge?.interrupt();
            controller.abort();
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
        bridge?.close();
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  };

  return {
    async invoke(request) {
      const reply = await runOne(
        { kind: "call", mode: "invoke", modulePath: request.modulePath, exportName: request.exportName, args: request.args, data: request.context.data },
        request,
        request.context.signal,
      );
      if (reply.kind === "returned") return { kind: "returned", value: reply.value, type: String(reply.type) };
      if (reply.kind === "interrupted") return { kind: "interrupted" };
      if (reply.kind === "load-failed") return { kind: "load-failed", message: String(reply.message) };
      return { kind: "threw", message: String(reply.message) };
    },
    async inspectAll(paths) {
      // One message for all (each module still gets a realm of its own); a module that hangs would need the per-module path.
      const reply = (await runOne({ kind: "inspect-all", paths: [...paths] }, undefined, undefined)) as Reply & { replies?: Reply[] };
      return (reply.replies ?? []).map((r) =>
        r.kind === "inspected" ? { kind: "loaded", shape: r.shape as never } : { kind: "load-failed", message: String(r.message) },
      );
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
