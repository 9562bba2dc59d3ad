// Issue 16: the worker-per-call design (shipped) against the realm-per-call
// prototype (bench/realm/), side by side in the same run. Every figure is
// taken in a process of its own (bench/realm/measure.ts), the two designs
// alternating, so both see the same machine. `bun run`, not the binary: the
// realm design exists only as a prototype.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { report } from "./support/report.ts";

const script = resolve(import.meta.dir, "realm/measure.ts");
const designs = ["workers", "realms"] as const;

function measure(design: string, figure: string): { samples?: number[]; value?: number } {
  const child = spawnSync(process.execPath, [script, design, figure], { encoding: "utf8", timeout: 300_000 });
  const line = child.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${design} ${figure} failed: ${child.stderr.slice(0, 500)}`);
  }
}

const label = { workers: "worker per call", realms: "realm per call" };
for (const [figure, name] of [
  ["invoke", "invoke trivial tool, back to back"],
  ["invoke-gap", "invoke trivial tool, 50 ms apart"],
  ["hooks", "3 hooks x 2 points per tool call, back to back"],
  ["hooks-gap", "3 hooks x 2 points per tool call, 50 ms apart"],
  ["runaway", "interrupt of a for (;;) {} call to its outcome"],
] as const) {
  for (const design of designs) report(`${name} (${label[design]})`, measure(design, figure).samples!, "ms");
}
for (const [figure, name, unit, runs] of [
  ["discovery", "runtime start to 20 modules inspected", "ms", 9],
  ["rss-run", "peak RSS, shell call + 2 tool calls with 3+3 hooks", "MB", 5],
  ["rss-growth", "RSS growth over 10,000 invocations", "MB", 3],
] as const) {
  const values: Record<string, number[]> = { workers: [], realms: [] };
  for (let i = 0; i < runs; i++) for (const design of designs) values[design]!.push(measure(design, figure).value!);
  for (const design of designs) report(`${name} (${label[design]})`, values[design]!, unit);
}
