/**
 * Where the worker entry is. From source it sits beside this file. In a
 * `bun build --compile` binary every bundled module reports the binary's own
 * URL at the root of the embedded tree (the root being src/, the common
 * folder of the entry points), and the worker is embedded under that root
 * with its source-relative path.
 */
export function workerUrl(here: string = import.meta.url): URL {
  const compiled = here.includes("/$bunfs/") || here.includes("/~BUN/");
  return compiled ? new URL("./runtime/invoke-worker.ts", here) : new URL("./invoke-worker.ts", here);
}
