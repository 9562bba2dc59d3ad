// Where the time of an invocation in a worker of its own goes (the first
// call of a process, Deno, RIENDA_CONTEXTS=workers): boot of a bare worker
// (an entry that only answers) beside a whole call in our worker entry
// (src/runtime/context/invoke-worker.ts: spawn, module load, ctx built,
// export run, answer), and the end of the worker (terminate to its close
// event); one worker at a time. A fresh node:vm realm in this thread for scale.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContext, runInContext } from "node:vm";
import { createBridgeBuffer } from "../src/runtime/bridge-layout.ts";
import { workerUrl } from "../src/runtime/host/worker-call.ts";
import { report } from "./support/report.ts";

const dir = mkdtempSync(join(tmpdir(), "rienda-bench-phases-"));
const toolPath = join(dir, "tool.js");
writeFileSync(toolPath, `module.exports = { execute(ctx, args) { return "ok " + args.n; } };`);
const bare = join(dir, "bare-worker.js");
writeFileSync(bare, `onmessage = (e) => postMessage(e.data);`);
const data = { workdir: dir, session: null, agent: null, config: {} };
const RUNS = 120;

const once = <T>(worker: Worker) =>
  new Promise<T>((done) => {
    worker.onmessage = (event: MessageEvent) => done(event.data as T);
  });
const closed = (worker: Worker) =>
  new Promise<void>((done) => worker.addEventListener("close", () => done(), { once: true }));

const bootBare: number[] = [];
const whole: number[] = [];
const endTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  const b = new Worker(bare);
  b.postMessage(1);
  await once(b);
  bootBare.push(performance.now() - t);
  b.terminate();
  await closed(b);

  // A whole call as the runtime makes one: spawn, call with the buffer, answer; then the end.
  t = performance.now();
  const w = new Worker(workerUrl().href, { type: "module" } as WorkerOptions);
  w.postMessage({
    kind: "call",
    mode: "invoke",
    modulePath: toolPath,
    exportName: "execute",
    args: [{ n: i }],
    data,
    buffer: createBridgeBuffer(),
  });
  const reply = await once<{ kind: string }>(w);
  whole.push(performance.now() - t);
  if (reply.kind !== "returned") throw new Error(JSON.stringify(reply));
  t = performance.now();
  w.terminate();
  await closed(w);
  endTimes.push(performance.now() - t);
}
const realm: number[] = [];
for (let i = 0; i < 500; i++) {
  const t = performance.now();
  const c = createContext({});
  runInContext(
    `var module = { exports: {} }; (function (module) { module.exports = { execute(ctx, a) { return "ok " + a.n; } }; })(module); module.exports.execute(null, { n: ${i} })`,
    c,
  );
  realm.push(performance.now() - t);
}
const skip = (xs: number[]) => xs.slice(10);
report("boot of a bare worker (to its first answer)", skip(bootBare), "ms");
report("whole call in a worker of its own (spawn to answer)", skip(whole), "ms");
report("end of a worker (terminate to close)", skip(endTimes), "ms");
report("fresh vm realm, compile and call", realm.slice(50), "ms");
