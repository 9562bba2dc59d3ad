// Overhead of one fresh-context invocation of a trivial tool inside a running process, and RSS over 10,000 calls.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectGarbage } from "../src/platform.ts";
import { createRuntime } from "../src/runtime/index.ts";
import { report } from "./support/report.ts";

const dir = mkdtempSync(join(tmpdir(), "rienda-bench-"));
const modulePath = join(dir, "index.js");
writeFileSync(modulePath, `module.exports = { execute(ctx, args) { return "ok " + args.n; } };`);
const frontEnd = { log() {}, output() {}, notify() {}, confirm: async () => false };
const data = { workdir: dir, session: { id: "b", agentId: "", modelId: "", workdir: dir }, agent: { name: "", description: "", model: "", tools: [], hooks: [], skills: [], agents: [], config: {}, systemPrompt: "" }, config: {} };
const context = { data, frontEnd, signal: new AbortController().signal };

async function measure(spareWorker: boolean, calls: number): Promise<number[]> {
  const runtime = createRuntime({ spareWorker });
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    // Give the spare time to boot, as a model turn would between tool calls.
    if (spareWorker) await new Promise((r) => setTimeout(r, 5));
    const t = performance.now();
    const outcome = await runtime.invoke({ modulePath, exportName: "execute", args: [{ n: i }], context });
    times.push(performance.now() - t);
    if (outcome.kind !== "returned") throw new Error(JSON.stringify(outcome));
  }
  await runtime.close();
  return times.slice(10);
}

report("invoke trivial tool, spare worker ready", await measure(true, 200), "ms");
report("invoke trivial tool, no spare (spawn per call)", await measure(false, 200), "ms");

const runtime = createRuntime();
const mb = () => process.memoryUsage().rss / (1024 * 1024);
collectGarbage();
const before = mb();
const samples: number[] = [];
for (let i = 0; i < 10_000; i++) {
  await runtime.invoke({ modulePath, exportName: "execute", args: [{ n: i }], context });
  if (i % 1000 === 999) {
    collectGarbage();
    samples.push(mb() - before);
  }
}
await runtime.close();
report("RSS growth after 10,000 invocations (per 1,000)", samples, "MB");
console.log(`RSS growth after 10,000 invocations: ${samples[samples.length - 1]!.toFixed(1)} MB (from ${before.toFixed(1)} MB)`);
