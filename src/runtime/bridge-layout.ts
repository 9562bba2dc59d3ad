/**
 * Layout of the shared buffer between a context (worker) and the host.
 * `invoke-worker.ts` repeats these numbers because it may not import
 * anything; test/runtime/bridge-layout.test.ts keeps both in step.
 *
 * Int32 words: STATE (who holds the buffer), INTERRUPT (set once, wakes
 * `ctx.sleep`), LENGTH (payload bytes), STATUS (ok / error / type error of
 * the answer); then the table of the process groups the context started
 * itself (GROUP_COUNT, GROUPS_ENDED, SPAWNING, the group ids from
 * GROUP_FIRST on: see context-processes.ts). The UTF-8 JSON payload starts at HEADER_BYTES.
 */

/** Index of the state word. */
export const STATE = 0;
/** Index of the interrupt word: 0, then 1 once the invocation is interrupted. */
export const INTERRUPT = 1;
/** Index of the payload length word. */
export const LENGTH = 2;
/** Index of the status word of an answer. */
export const STATUS = 3;
/** Index of the word counting the process groups recorded (written by the context only). */
export const GROUP_COUNT = 4;
/** Index of the word counting the recorded groups the host has ended (written by the host only). */
export const GROUPS_ENDED = 5;
/** Index of the word that is 1 while the context starts a process and has not recorded its group yet. */
export const SPAWNING = 6;
/** Index of the first recorded process group id. */
export const GROUP_FIRST = 7;
/** How many process groups one context can record: the words up to the payload. */
export const GROUP_SLOTS = 1017;
/** Bytes before the payload. */
export const HEADER_BYTES = 4096;

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
  const Growable = SharedArrayBuffer as unknown as new (
    length: number,
    options: { maxByteLength: number },
  ) => SharedArrayBuffer;
  return new Growable(INITIAL_BYTES, { maxByteLength: MAX_BYTES });
}

/**
 * The request buffer of a realm helper (realm-helper-worker.ts), which
 * never returns to its event loop and so cannot receive messages: Int32
 * words CONTROL_DOORBELL (1 while a request waits) and CONTROL_LENGTH (its
 * bytes), the request from CONTROL_HEADER_BYTES on: the call's nonce
 * (NONCE_LENGTH characters, see realm-helper-worker.ts), then the call.
 */
export const CONTROL_DOORBELL = 0;
export const CONTROL_LENGTH = 1;
export const CONTROL_HEADER_BYTES = 64;
export const NONCE_LENGTH = 32;
