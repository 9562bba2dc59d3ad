/**
 * A context's end of the bridge buffer (layout: bridge-layout.ts), shared by
 * the worker entry and the realm helper: one synchronous `ctx` request, and
 * Atomics on the header's words. Both hand these to the context kernel
 * (context-kernel.ts), which speaks only in strings and numbers, since a
 * ShadowRealm lets nothing else cross.
 */
import {
  HEADER_BYTES,
  IDLE,
  LENGTH,
  REQUEST,
  RESPONSE,
  STATE,
  STATUS,
  STATUS_OK,
  STATUS_TYPE_ERROR,
} from "../bridge-layout.ts";
import type { WordOp } from "./context-kernel.ts";

/**
 * One `ctx` request: written into the buffer, the host woken, and this
 * thread blocked in `Atomics.wait` until the answer is there. Answers "R" +
 * JSON, "E" + message (an Error), "T" + message (a TypeError) or "I" (the
 * call was interrupted: the host stopped serving). Never throws (a realm
 * would see only Bun's opaque TypeError).
 */
export function bridgeExchange(buffer: SharedArrayBuffer): (request: string) => string {
  const words = new Int32Array(buffer, 0, 4);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  return function exchange(request: string): string {
    // A closed bridge serves nothing: only an answer the host wrote may come back, never our own request.
    const before = Atomics.load(words, STATE);
    if (before !== IDLE && before !== RESPONSE) return "I";
    const text = String(request);
    let written: number;
    if (HEADER_BYTES + text.length * 3 <= buffer.byteLength) {
      written = encoder.encodeInto(text, new Uint8Array(buffer, HEADER_BYTES)).written;
    } else {
      const bytes = encoder.encode(text);
      const tooLarge = grow(buffer, HEADER_BYTES + bytes.length);
      if (tooLarge) return `E${tooLarge}`;
      new Uint8Array(buffer, HEADER_BYTES, bytes.length).set(bytes);
      written = bytes.length;
    }
    Atomics.store(words, LENGTH, written);
    Atomics.store(words, STATE, REQUEST);
    Atomics.notify(words, STATE);
    let state: number;
    while ((state = Atomics.load(words, STATE)) === REQUEST) Atomics.wait(words, STATE, REQUEST);
    if (state !== RESPONSE) return "I";
    const length = Atomics.load(words, LENGTH);
    const status = Atomics.load(words, STATUS);
    // Copy out of shared memory first: decoding a view of it is not portable.
    const answer = decoder.decode(new Uint8Array(buffer, HEADER_BYTES, length).slice());
    return (status === STATUS_OK ? "R" : status === STATUS_TYPE_ERROR ? "T" : "E") + answer;
  };
}

/** Grows the buffer to hold `bytes`; the message when it cannot grow that far. */
function grow(buffer: SharedArrayBuffer, bytes: number): string | undefined {
  const b = buffer as SharedArrayBuffer & { grow?(n: number): void; maxByteLength?: number };
  const max = b.maxByteLength ?? b.byteLength;
  if (bytes <= b.byteLength) return undefined;
  if (bytes > max || !b.grow) return `the request is too large (${bytes} bytes, at most ${max})`;
  let size = b.byteLength;
  while (size < bytes) size *= 2;
  b.grow(Math.min(size, max));
  return undefined;
}

const WAITED = ["ok", "timed-out", "not-equal"];

/** Atomics on the words of the buffer's header only (see WordOp); -1 for an index outside it. */
export function bridgeWords(buffer: SharedArrayBuffer): WordOp {
  const words = new Int32Array(buffer, 0, HEADER_BYTES / 4);
  return (op, index, value, timeoutMs) => {
    const i = Number(index);
    if (!(i >= 0 && i < words.length)) return -1;
    switch (op) {
      case "load":
        return Atomics.load(words, i);
      case "store":
        return Atomics.store(words, i, Number(value));
      case "notify":
        return Atomics.notify(words, i);
      case "wait":
        return WAITED.indexOf(Atomics.wait(words, i, Number(value), Number(timeoutMs)));
      default:
        return -1;
    }
  };
}
