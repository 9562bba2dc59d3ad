/**
 * Context side: the types the kernel and its parts share (erased at build),
 * in a file of their own so that no part imports the kernel.
 */

/** Loads a CommonJS module (or a built-in) by absolute path or id. */
export type LoadFn = (path: string) => unknown;

/** The Atomics operations a context may do on its bridge buffer's words (strings: they cross a realm's edge). */
export type WordOpName = "load" | "store" | "notify" | "wait";

/**
 * Atomics `op` on word `index` of the bridge buffer; "wait" answers 0
 * (woken), 1 (timed out) or 2 (not equal), the others what Atomics answers.
 */
export type WordOp = (op: WordOpName, index: number, value: number, timeoutMs: number) => number;

/** The synchronous call to the host (`ctx` members use it): an op name and its arguments. */
export type CallHost = (op: string, ...args: unknown[]) => unknown;
