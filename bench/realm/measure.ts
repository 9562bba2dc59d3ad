// One figure of one context design, in a process of its own (so RSS and cold
// starts are its own): `bun bench/realm/measure.ts <workers|vm|realms> <figure>`
// (workers: a worker per call; vm: the node:vm prototype of bench/realm/, a
// node:vm context per call; realms: the shipped ShadowRealm per call).
// Prints one JSON line { samples: number[] } or { value: number }.
// Figures: invoke (back to back), invoke-gap, hooks (3 hooks on both tool
// points, back to back), hooks-gap (50 ms between tool calls), rss-run (peak
// RSS of a shell call and a tool call with 3 hooks on both points),
// rss-growth (10,000 invocations), discovery (runtime start to 20 modules inspected).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectGarbage } from "../../src/platform.ts";
import { createRuntime } from "../../src/runtime/index.ts";
import type { InspectOutcome, InvokeRequest, Outcome, Runtime } from "../../src/runtime/types.ts";
import { createRealmRuntime } from "./realm-runtime.ts";

const DESIGNS = ["workers", "vm", "realms"] as const;
type DesignName = (typeof DESIGNS)[number];
const [designArg, figure] = process.argv.slice(2);
if (!DESIGNS.includes(designArg as DesignName))
  throw new Error(`unknown design ${designArg}: one of ${DESIGNS.join(", ")}`);
const design = designArg as DesignName;
const start = performance.now();

interface Design {
  invoke(request: InvokeRequest): Promise<Outcome>;
  inspectAll(paths: readonly string[]): Promise<InspectOutcome[]>;
  settled(): Promise<void>;
  exec(command: string): Promise<unknown>;
  close(): void;
}

const shipped = (runtime: Runtime): Design => ({
  invoke: (r) => runtime.invoke(r),
  inspectAll: (p) => runtime.inspectAll(p),
  settled: () => runtime.settled(),
  exec: (command) => runtime.exec({ command, cwd: dir }),
  close: () => void runtime.close(),
});

/**
 * The realm designs run calls in their one helper, the worker design in a
 * worker per call. For discovery, pass "discovery": every shipped design
 * then starts as a run does (no helper asked for yet), since discovery runs
 * in workers in both.
 */
function open(phase: "calls" | "discovery"): Design {
  if (design === "vm") {
    const realms = createRealmRuntime();
    // The prototype has no runtime.exec of its own: the shell tool runs in this process either way.
    const workers = createRuntime({ contexts: "workers" });
    return {
      invoke: (r) => realms.invoke(r),
      inspectAll: (p) => realms.inspectAll(p),
      settled: () => realms.settled(),
      exec: (command) => workers.exec({ command, cwd: dir }),
      close: () => {
        realms.close();
        void workers.close();
      },
    };
  }
  if (phase === "discovery" || design === "workers") return shipped(createRuntime({ contexts: design }));
  // expectCalls boots the helper, so every call measured runs in a ShadowRealm, not in a first call's worker.
  const runtime = createRuntime({ contexts: "realms" });
  runtime.expectCalls();
  return shipped(runtime);
}

const dir = mkdtempSync(join(tmpdir(), "rienda-bench-realm-"));
const toolPath = join(dir, "tool.js");
writeFileSync(toolPath, `module.exports = { execute(ctx, args) { return "ok " + args.n; } };`);
const hookPath = join(dir, "hook.js");
writeFileSync(
  hookPath,
  `module.exports = { beforeToolExecute(ctx, e) { return undefined; }, afterToolExecute(ctx, e) { return undefined; } };`,
);
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
const call = async (d: Design, modulePath: string, exportName: string, args: unknown[]) => {
  const outcome = await d.invoke({ modulePath, exportName, args, context });
  if (outcome.kind !== "returned") throw new Error(JSON.stringify(outcome));
};
/** A tool call with 3 hooks on beforeToolExecute and afterToolExecute: 7 invocations in a row. */
const toolCallWithHooks = async (d: Design, n: number) => {
  for (let h = 0; h < 3; h++) await call(d, hookPath, "beforeToolExecute", [{ tool: "t", args: { n } }]);
  await call(d, toolPath, "execute", [{ n }]);
  for (let h = 0; h < 3; h++) await call(d, hookPath, "afterToolExecute", [{ tool: "t", result: "ok" }]);
};
const gap = () => new Promise((r) => setTimeout(r, 50));
const mb = () => process.memoryUsage().rss / (1024 * 1024);
const out = (value: unknown) => console.log(JSON.stringify(value));

switch (figure) {
  case "invoke":
  case "invoke-gap": {
    const d = open("calls");
    await d.settled();
    const samples: number[] = [];
    for (let i = 0; i < 300; i++) {
      if (figure === "invoke-gap") await gap();
      const t = performance.now();
      await call(d, toolPath, "execute", [{ n: i }]);
      samples.push(performance.now() - t);
    }
    d.close();
    out({ samples: samples.slice(20) });
    break;
  }
  case "hooks":
  case "hooks-gap": {
    const d = open("calls");
    await d.settled();
    const alone: number[] = [];
    const withHooks: number[] = [];
    for (let i = 0; i < 60; i++) {
      if (figure === "hooks-gap") await gap();
      let t = performance.now();
      await call(d, toolPath, "execute", [{ n: i }]);
      alone.push(performance.now() - t);
      if (figure === "hooks-gap") await gap();
      t = performance.now();
      await toolCallWithHooks(d, i);
      withHooks.push(performance.now() - t);
    }
    d.close();
    alone.sort((a, b) => a - b);
    const base = alone[alone.length >> 1]!;
    out({ samples: withHooks.slice(5).map((t) => t - base) });
    break;
  }
  case "rss-run": {
    const d = open("calls");
    await d.exec("echo hi");
    await toolCallWithHooks(d, 0);
    await gap();
    await toolCallWithHooks(d, 1);
    d.close();
    out({ value: process.resourceUsage().maxRSS / 1024 });
    break;
  }
  case "rss-growth": {
    const d = open("calls");
    for (let i = 0; i < 200; i++) await call(d, toolPath, "execute", [{ n: i }]);
    collectGarbage();
    const before = mb();
    for (let i = 0; i < 10_000; i++) await call(d, toolPath, "execute", [{ n: i }]);
    collectGarbage();
    out({ value: mb() - before, before });
    d.close();
    break;
  }
  case "discovery": {
    const paths: string[] = [];
    for (let i = 0; i < 20; i++) {
      mkdirSync(join(dir, `t${i}`));
      const path = join(dir, `t${i}`, "index.js");
      writeFileSync(
        path,
        `module.exports = { description: "Tool ${i}.", parameters: { type: "object", properties: { path: { type: "string" } } }, execute(ctx, a) { return a.path; } };`,
      );
      paths.push(path);
    }
    const t = performance.now();
    const d = open("discovery");
    const outcomes = await d.inspectAll(paths);
    const elapsed = performance.now() - t;
    if (outcomes.some((o) => o.kind !== "loaded")) throw new Error(JSON.stringify(outcomes));
    d.close();
    out({ value: elapsed, sinceProcessStart: performance.now() - start });
    break;
  }
  case "runaway": {
    // A call stuck in for (;;) {} is interrupted: time until its outcome, then the next call must work.
    const spinPath = join(dir, "spin.js");
    writeFileSync(spinPath, `module.exports = { execute(ctx) { ctx.log("spinning"); for (;;) {} } };`);
    const d = open("calls");
    await d.settled();
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      let started!: () => void;
      const spinning = new Promise<void>((r) => (started = r));
      const pending = d.invoke({
        modulePath: spinPath,
        exportName: "execute",
        args: [{}],
        context: { ...context, frontEnd: { ...frontEnd, log: () => started() }, signal: controller.signal },
      });
      await spinning;
      await new Promise((r) => setTimeout(r, 20));
      const t = performance.now();
      controller.abort();
      const outcome = await pending;
      samples.push(performance.now() - t);
      if (outcome.kind !== "interrupted") throw new Error(JSON.stringify(outcome));
      await call(d, toolPath, "execute", [{ n: i }]);
    }
    d.close();
    out({ samples });
    break;
  }
  default:
    throw new Error(`unknown figure ${figure}`);
}
process.exit(0);
