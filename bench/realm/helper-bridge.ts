/**
 * Prototype (issue 16): the helper worker's end of the ctx bridge, shared by
 * both realm prototypes. A realm reaches the host only through these two
 * functions, which take and return strings (a ShadowRealm lets nothing else
 * cross), over the same shared buffer and layout as the worker design.
 */
import { HEADER_BYTES, IDLE, INTERRUPT, LENGTH, REQUEST, RESPONSE, STATE, STATUS, STATUS_TYPE_ERROR } from "../../src/runtime/bridge-layout.ts";

export interface HelperBridge {
  /** Takes the buffer the host sent at start. */
  attach(buffer: SharedArrayBuffer): void;
  /** Starts over for a new call: the state word back to IDLE, no interrupt. */
  reset(): void;
  /** A ctx request as JSON text; returns "R" + JSON answer, or "E"/"T" + message (the realm throws its own Error/TypeError). */
  hostCall(request: string): string;
  /** ctx.sleep: returns early once the call is interrupted. */
  hostSleep(ms: number): void;
}

export function createHelperBridge(): HelperBridge {
  let words: Int32Array;
  let buffer: SharedArrayBuffer;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    attach(shared) {
      buffer = shared;
      words = new Int32Array(buffer, 0, 4);
    },
    reset() {
      Atomics.store(words, STATE, IDLE);
      Atomics.store(words, INTERRUPT, 0);
    },
    hostCall(request) {
      const before = Atomics.load(words, STATE);
      if (before !== IDLE && before !== RESPONSE) return "Ethe call was interrupted";
      const bytes = encoder.encode(String(request));
      if (HEADER_BYTES + bytes.length > buffer.byteLength) (buffer as unknown as { grow(n: number): void }).grow(HEADER_BYTES + bytes.length);
      new Uint8Array(buffer, HEADER_BYTES, bytes.length).set(bytes);
      Atomics.store(words, LENGTH, bytes.length);
      Atomics.store(words, STATE, REQUEST);
      Atomics.notify(words, STATE);
      let state: number;
      while ((state = Atomics.load(words, STATE)) === REQUEST) Atomics.wait(words, STATE, REQUEST);
      if (state !== RESPONSE) return "Ethe call was interrupted";
      const text = decoder.decode(new Uint8Array(buffer, HEADER_BYTES, Atomics.load(words, LENGTH)).slice());
      const status = Atomics.load(words, STATUS);
      return status === 0 ? "R" + text : (status === STATUS_TYPE_ERROR ? "T" : "E") + text;
    },
    hostSleep(ms) {
      if (ms > 0) Atomics.wait(words, INTERRUPT, 0, Number(ms));
    },
  };
}
