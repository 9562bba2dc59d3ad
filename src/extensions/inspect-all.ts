import type { InspectOutcome, Runtime } from "../runtime/index.ts";

/** Two at a time: the machines have two cores, and each load is its own worker. */
const CONCURRENCY = 2;

/** Inspects every module, keeping the input order. */
export async function inspectAll(runtime: Runtime, files: readonly string[]): Promise<InspectOutcome[]> {
  const out: InspectOutcome[] = new Array(files.length);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      out[i] = await runtime.inspect(files[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, lane));
  return out;
}
