/** Host side: serves one context's synchronous `ctx` calls over its shared buffer, never blocking the main thread. */
import {
  CLOSED,
  HEADER_BYTES,
  INTERRUPT,
  LENGTH,
  REQUEST,
  RESPONSE,
  STATE,
  STATUS,
  STATUS_ERROR,
  STATUS_OK,
  STATUS_TYPE_ERROR,
} from "../bridge-layout.ts";
import { CtxError } from "./ctx-error.ts";

/** Performs one `ctx` operation for a context; may be async (the context stays blocked meanwhile). */
export type CtxHandler = (op: string, args: unknown[]) => unknown;

/** The host end of one context's bridge. */
export interface BridgeServer {
  /** Sets the interrupt word and wakes a sleeping context. */
  interrupt(): void;
  /** Stops serving; an answer still being computed is dropped. */
  close(): void;
}

/**
 * Serves `ctx` calls of one context from this (the main) thread. The thread
 * is never blocked: it waits with `Atomics.waitAsync`, so timers, child
 * process output and terminal prompts keep flowing while the context is
 * blocked in `Atomics.wait`.
 */
export function serveBridge(buffer: SharedArrayBuffer, handle: CtxHandler): BridgeServer {
  const words = new Int32Array(buffer, 0, 4);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let closed = false;

  async function answer(): Promise<void> {
    let status = STATUS_OK;
    let text: string;
    try {
      const length = Atomics.load(words, LENGTH);
      const request = JSON.parse(decoder.decode(new Uint8Array(buffer, HEADER_BYTES, length).slice())) as unknown[];
      const [op, ...args] = request;
      const result = await handle(String(op), args);
      text = result === undefined ? "" : JSON.stringify(result);
    } catch (error) {
      status = error instanceof CtxError && error.typeError ? STATUS_TYPE_ERROR : STATUS_ERROR;
      text = error instanceof Error ? error.message : String(error);
    }
    if (closed) return;
    let bytes = encoder.encode(text);
    if (HEADER_BYTES + bytes.length > buffer.byteLength && !grow(buffer, HEADER_BYTES + bytes.length)) {
      status = STATUS_ERROR;
      bytes = encoder.encode(`the answer is too large (${bytes.length} bytes)`);
    }
    new Uint8Array(buffer, HEADER_BYTES, bytes.length).set(bytes);
    Atomics.store(words, LENGTH, bytes.length);
    Atomics.store(words, STATUS, status);
    Atomics.store(words, STATE, RESPONSE);
    Atomics.notify(words, STATE);
  }

  async function loop(): Promise<void> {
    while (!closed) {
      const state = Atomics.load(words, STATE);
      if (state === CLOSED) return;
      if (state === REQUEST) {
        await answer();
        continue;
      }
      const wait = Atomics.waitAsync(words, STATE, state);
      if (wait.async) await wait.value;
    }
  }
  void loop();

  return {
    interrupt() {
      Atomics.store(words, INTERRUPT, 1);
      Atomics.notify(words, INTERRUPT);
    },
    close() {
      if (closed) return;
      closed = true;
      // Wakes the waitAsync above so the loop ends instead of lingering.
      Atomics.store(words, STATE, CLOSED);
      Atomics.notify(words, STATE);
    },
  };
}

function grow(buffer: SharedArrayBuffer, bytes: number): boolean {
  const b = buffer as SharedArrayBuffer & { grow?(n: number): void; maxByteLength?: number };
  const max = b.maxByteLength ?? b.byteLength;
  if (bytes > max || !b.grow) return false;
  let size = b.byteLength;
  while (size < bytes) size *= 2;
  b.grow(Math.min(size, max));
  return true;
}
