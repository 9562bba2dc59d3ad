// Issue 16: the two shipped context designs, a worker per call and a
// ShadowRealm per call (createRuntime's `contexts`), beside the node:vm
// realm-per-call prototype (bench/realm/), kept to compare with the design
// that replaced it. Every figure is taken in a process of its own
// (bench/realm/measure.ts), the designs alternating, so all see the same
// machine. `bun run`, not the binary: the prototype is not in it.
// RIENDA_BASELINE_TREE=<a checkout of another commit, with node_modules>
// adds that tree's worker design as one more column ("before"/"after").
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { report } from "./support/report.ts";

const baselineTree = process.env.RIENDA_BASELINE_TREE;
const scripts: Record<string, { script: string; design: string; label: string }> = {
  ...(baselineTree
    ? {
        baseline: {
          script: resolve(baselineTree, "bench/realm/measure.ts"),
          design: "workers",
          label: "worker per call, baseline tree",
        },
      }
    : {}),
  workers: { script: resolve(import.meta.dir, "realm/measure.ts"), design: "workers", label: "worker per call" },
  vm: { script: resolve(import.meta.dir, "realm/measure.ts"), design: "vm", label: "vm realm per call (prototype)" },
  realms: {
    script: resolve(import.meta.dir, "realm/measure.ts"),
    design: "realms",
    label: "ShadowRealm per call (shipped)",
  },
};
const designs = Object.keys(scripts);

function measure(key: string, figure: string): { samples?: number[]; value?: number } {
  const { script, design } = scripts[key]!;
  const child = spawnSync(process.execPath, [script, design, figure], {
    encoding: "utf8",
    timeout: 300_000,
    cwd: resolve(script, "../../.."),
  });
  const line = child.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${key} ${figure} failed: ${child.stderr.slice(0, 500)}`);
  }
}

for (const [figure, name] of [
  ["invoke", "invoke trivial tool, back to back"],
  ["invoke-gap", "invoke trivial tool, 50 ms apart"],
  ["hooks", "3 hooks x 2 points per tool call, back to back"],
  ["hooks-gap", "3 hooks x 2 points per tool call, 50 ms apart"],
  ["runaway", "interrupt of a for (;;) {} call to its outcome"],
] as const) {
  for (const design of designs) report(`${name} (${scripts[design]!.label})`, measure(design, figure).samples!, "ms");
}
for (const [figure, name, unit, runs] of [
  ["discovery", "runtime start to 20 modules inspected", "ms", 9],
  ["rss-run", "peak RSS, shell call + 2 tool calls with 3+3 hooks", "MB", 5],
  ["rss-growth", "RSS growth over 10,000 invocations", "MB", 3],
] as const) {
  const values: Record<string, number[]> = Object.fromEntries(designs.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) for (const design of designs) values[design]!.push(measure(design, figure).value!);
  for (const design of designs) report(`${name} (${scripts[design]!.label})`, values[design]!, unit);
}
