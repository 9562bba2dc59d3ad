/**
 * The only module that touches `Bun.*`. Everything else uses web-standard and
 * `node:` APIs so the code also runs from source under Deno. Each function
 * has a portable fallback for runtimes without Bun.
 */

declare const Bun: { version: string; stringWidth?(text: string): number; gc?(force: boolean): void } | undefined;

/** The Bun version running Rienda, or undefined under another runtime. */
export function bunVersion(): string | undefined {
  return typeof Bun !== "undefined" ? Bun.version : undefined;
}

/** Terminal display width of `text` (wide characters count twice). */
export function displayWidth(text: string): number {
  if (typeof Bun !== "undefined" && Bun.stringWidth) return Bun.stringWidth(text);
  return [...text].length;
}

/**
 * Asks the runtime for a full garbage collection, where it allows it: the
 * realm helper between calls (realm-helper-worker.ts), so that what finished
 * realms held is given back early.
 */
export function collectGarbage(): void {
  if (typeof Bun !== "undefined" && Bun.gc) Bun.gc(true);
}

type Waitpid = (pid: number) => number;
let waitpid: Waitpid | null | undefined;

/**
 * Collects the exit status of `pid`, a child of this process that has
 * ended, so it does not stay a zombie: `waitpid(pid, NULL, WNOHANG)` from
 * libc, called through Bun's FFI. "running": it has not ended yet;
 * "unknown": not a child of ours (or already collected), or no way to ask
 * (not Bun, not Linux or macOS, no libc found), in which case nothing is
 * done and the zombie stays until Rienda exits, as before.
 */
export function reapChild(pid: number): "reaped" | "running" | "unknown" {
  waitpid ??= loadWaitpid();
  if (!waitpid) return "unknown";
  const result = waitpid(pid);
  return result === pid ? "reaped" : result === 0 ? "running" : "unknown";
}

function loadWaitpid(): Waitpid | null {
  if (typeof Bun === "undefined" || (process.platform !== "linux" && process.platform !== "darwin")) return null;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen(process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6", {
      waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    });
    // WNOHANG is 1 on Linux and macOS alike.
    return (pid) => lib.symbols.waitpid(pid, null, 1);
  } catch {
    return null;
  }
}
