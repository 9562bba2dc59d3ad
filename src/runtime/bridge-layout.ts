/**
 * Layout of the shared buffer between a context (worker) and the host.
 * `invoke-worker.ts` repeats these numbers because it may not import
 * anything; test/runtime/bridge-layout.test.ts keeps both in step.
 *
 * Int32 words: STATE (who holds the buffer), INTERRUPT (set once, wakes
 * `ctx.sleep`), LENGTH (payload bytes), STATUS (ok / error / type error of
 * the answer). The UTF-8 JSON payload starts at HEADER_BYTES.
 */

/** Index of the state word. */
export const STATE = 0;
/** Index of the interrupt word: 0, then 1 once the invocation is interrupted. */
export const INTERRUPT = 1;
/** Index of the payload length word. */
export const LENGTH = 2;
/** Index of the status word of an answer. */
export const STATUS = 3;
/** Bytes before the payload. */
export const HEADER_BYTES = 16;

/** STATE values. */
export const IDLE = 0;
export const REQUEST = 1;
export const RESPONSE = 2;
export const CLOSED = 3;

/** STATUS values. */
export const STATUS_OK = 0;
export const STATUS_ERROR = 1;
export const STATUS_TYPE_ERROR = 2;

/** Start small (most calls are tiny); grow for large files and HTTP bodies. */
export const INITIAL_BYTES = 64 * 1024;
/** The largest single request or answer (file content, HTTP body) a context can exchange. */
export const MAX_BYTES = 1024 * 1024 * 1024;

/** A fresh, growable buffer for one invocation. */
export function createBridgeBuffer(): SharedArrayBuffer {
  const Growable = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer;
  return new Growable(INITIAL_BYTES, { maxByteLength: MAX_BYTES });
}
