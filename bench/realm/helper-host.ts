/**
 * Prototype (issue 16): the node:vm prototype's host side, apart from the
 * helper's life (realm-runtime.ts): serve one call's ctx over the helper's
 * buffer, keep calls in order (one helper runs one at a time), and read the
 * helper's replies as the runtime's outcomes.
 */
import { IDLE, INTERRUPT, STATE } from "../../src/runtime/bridge-layout.ts";
import { createCtxHandler } from "../../src/runtime/host/ctx-host.ts";
import { serveBridge } from "../../src/runtime/host/serve-bridge.ts";
import type { InspectOutcome, InvokeRequest, Outcome } from "../../src/runtime/types.ts";
import type { CallMessage } from "./helper-bridge.ts";

/** A reply of a helper worker. */
export type Reply = {
  kind: string;
  value?: unknown;
  type?: string;
  message?: string;
  shape?: unknown;
  replies?: Reply[];
};

/** The host end of one call's ctx, over the helper's buffer (none for an inspection: loading is not calling). */
export interface CallBridge {
  /** Wakes a ctx call in progress with "interrupted" and aborts what it waits for. */
  interrupt(): void;
  close(): void;
}

export function openCallBridge(buffer: SharedArrayBuffer, request: InvokeRequest | undefined): CallBridge {
  const words = new Int32Array(buffer, 0, 4);
  Atomics.store(words, STATE, IDLE);
  Atomics.store(words, INTERRUPT, 0);
  const controller = new AbortController();
  const bridge = request
    ? serveBridge(
        buffer,
        createCtxHandler({
          workdir: request.context.data.workdir,
          riendaDir: request.context.data.riendaDir,
          frontEnd: request.context.frontEnd,
          signal: controller.signal,
        }),
      )
    : undefined;
  return {
    interrupt() {
      bridge?.interrupt();
      controller.abort();
    },
    close() {
      bridge?.close();
    },
  };
}

/** Runs the functions given to it one after another, in the order given. */
export function inOrder(): <T>(run: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>) => {
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  };
}

/** The message asking a helper to invoke `request`. */
export function callMessage(request: InvokeRequest): CallMessage {
  return {
    kind: "call",
    mode: "invoke",
    modulePath: request.modulePath,
    exportName: request.exportName,
    args: request.args,
    data: request.context.data,
  };
}

export function outcomeOf(reply: Reply): Outcome {
  if (reply.kind === "returned") return { kind: "returned", value: reply.value, type: String(reply.type) };
  if (reply.kind === "interrupted") return { kind: "interrupted" };
  if (reply.kind === "load-failed") return { kind: "load-failed", message: String(reply.message) };
  return { kind: "threw", message: String(reply.message) };
}

export function inspectionsOf(reply: Reply): InspectOutcome[] {
  return (reply.replies ?? []).map((r) =>
    r.kind === "inspected"
      ? { kind: "loaded", shape: r.shape as never }
      : { kind: "load-failed", message: String(r.message) },
  );
}
