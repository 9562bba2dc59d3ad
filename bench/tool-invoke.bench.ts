// Overhead of one fresh-context invocation of a trivial tool inside a running process, in a ShadowRealm of the
// realm helper (the default under Bun) and in a worker spawned per call (the first call, Deno, RIENDA_CONTEXTS=workers),
// and RSS over 10,000 calls in each design.
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
const data = {
  workdir: dir,
  riendaDir: join(dir, ".rienda"),
  session: { id: "b", agentId: "", modelId: "", workdir: dir },
  agent: {
    name: "",
    description: "",
    model: "",
    tools: [],
    hooks: [],
    skills: [],
    agents: [],
    config: {},
    systemPrompt: "",
  },
  config: {},
};
const context = { data, frontEnd, signal: new AbortController().signal };

type Design = "realm" | "worker spawned per call";

function open(design: Design) {
  const runtime = createRuntime({ contexts: design === "realm" ? "realms" : "workers" });
  // Calls are expected: the helper boots (realm design).
  if (design === "realm") runtime.expectCalls();
  return runtime;
}

async function measure(design: Design, calls: number): Promise<number[]> {
  const runtime = open(design);
  await runtime.settled();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const outcome = await runtime.invoke({ modulePath, exportName: "execute", args: [{ n: i }], context });
    times.push(performance.now() - t);
    if (outcome.kind !== "returned") throw new Error(JSON.stringify(outcome));
  }
  await runtime.close();
  return times.slice(10);
}

report("invoke trivial tool, ShadowRealm of the helper, back to back", await measure("realm", 200), "ms");
report("invoke trivial tool, a worker spawned per call", await measure("worker spawned per call", 200), "ms");

for (const design of ["realm", "worker spawned per call"] as const) {
  const runtime = open(design);
  await runtime.settled();
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
  report(`RSS growth after 1,000 .. 10,000 invocations (${design})`, samples, "MB");
  console.log(
    `RSS growth after 10,000 invocations (${design}): ${samples[samples.length - 1]!.toFixed(1)} MB (from ${before.toFixed(1)} MB)`,
  );
}
