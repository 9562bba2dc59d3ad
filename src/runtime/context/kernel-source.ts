/**
 * Context side: the context kernel and its parts, as functions (for a
 * worker, which calls them) and as one source text (for a ShadowRealm, which
 * only primitives and functions can enter, so it evaluates the kernel from
 * its text). Every part refers to nothing outside itself, so each function's
 * own source is all it needs (test/runtime/context-kernel.test.ts).
 */
import { contextKernel, type KernelParts } from "./context-kernel.ts";
import { describing } from "./describe.ts";
import { routeOutput } from "./route-output.ts";
import { superviseSpawns } from "./supervise-spawns.ts";
import { createWorldGuard } from "./world-guard.ts";

/** The parts a worker hands the kernel. */
export const KERNEL_PARTS: KernelParts = { describing, routeOutput, superviseSpawns, createWorldGuard };

/**
 * `(exchange, word, selfUrl, load) => ContextKernel` as source text: the
 * kernel with its parts joined in. Each part is passed by its own source,
 * never by a name, so a bundler renaming things cannot break the join.
 */
export function kernelSource(): string {
  const parts = Object.entries(KERNEL_PARTS)
    .map(([name, fn]) => `${name}: (${fn.toString()})`)
    .join(", ");
  return `((exchange, word, selfUrl, load) => (${contextKernel.toString()})(exchange, word, selfUrl, load, { ${parts} }))`;
}
