/**
 * Where a worker entry is (`invoke-worker.ts` unless named). From source it
 * is in ../context/. In a `bun build --compile` binary every bundled
 * module reports the binary's own URL at the root of the embedded tree (the
 * root being src/, the common folder of the entry points), and the worker
 * is embedded under that root with its source-relative path.
 */
export function workerUrl(here: string = import.meta.url, entry: "invoke-worker.ts" | "realm-helper-worker.ts" = "invoke-worker.ts"): URL {
  const compiled = here.includes("/$bunfs/") || here.includes("/~BUN/");
  return compiled ? new URL(`./runtime/context/${entry}`, here) : new URL(`../context/${entry}`, here);
}
