/**
 * The only module that touches `Bun.*`. Everything else uses web-standard and
 * `node:` APIs so the code also runs from source under Deno. Each function
 * has a portable fallback for runtimes without Bun.
 */

declare const Bun: { version: string; stringWidth?(text: string): number; gc?(force: boolean): void } | undefined;

/** The JavaScript runtime executing Rienda, for diagnostics and `--version`. */
export function runtimeName(): string {
  if (typeof Bun !== "undefined") return `bun ${Bun.version}`;
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  if (deno) return `deno ${deno.version.deno}`;
  return `node ${process.versions.node}`;
}

/** The Bun version running Rienda, or undefined under another runtime. */
export function bunVersion(): string | undefined {
  return typeof Bun !== "undefined" ? Bun.version : undefined;
}

/** Terminal display width of `text` (wide characters count twice). */
export function displayWidth(text: string): number {
  if (typeof Bun !== "undefined" && Bun.stringWidth) return Bun.stringWidth(text);
  return [...text].length;
}

/** Asks the runtime for a full garbage collection, where it allows it (benchmarks). */
export function collectGarbage(): void {
  if (typeof Bun !== "undefined" && Bun.gc) Bun.gc(true);
}
