// Where the time of an invocation goes when no spare worker is ready (issue
// 16, back-to-back cost): boot of a bare worker (an entry that only answers),
// boot of our worker entry (src/runtime/invoke-worker.ts) to its "ready",
// the call itself (module load, ctx built, export run, answer), and the end
// of the worker (terminate to its close event). Each phase is timed alone,
// one worker at a time, so the figures add up to a call with no spare.
// Also: the same call with the worker ended only after the next one booted
// (ending overlaps the next boot), and a fresh node:vm realm in this thread
// for scale.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, } from "node:path";
import { createContext, runInContext } from "node:vm";
import { createBridgeBuffer } from "../src/runtime/bridge-layout.ts";
import { workerUrl } from "../src/runtime/host/worker-url.ts";
import { report } from "./support/report.ts";

const dir = mkdtempSync(join(tmpdir(), "rienda-bench-phases-"));
const toolPath = join(dir, "tool.js");
writeFileSync(toolPath, `module.exports = { execute(ctx, args) { return "ok " + args.n; } };`);
const bare = join(dir, "bare-worker.js");
writeFileSync(bare, `onmessage = (e) => postMessage(e.data);`);
const data = { workdir: dir, session: null, agent: null, config: {} };
const RUNS = 120;

const once = <T>(worker: Worker, kind?: string) =>
  new Promise<T>((done) => {
    worker.onmessage = (event: MessageEvent) => {
      if (kind && (event.data as { kind?: string }).kind !== kind) return;
      done(event.data as T);
    };
  });
const closed = (worker: Worker) => new Promise<void>((done) => worker.addEventListener("close", () => done(), { once: true }));

const bootBare: number[] = [];
const bootOurs: number[] = [];
const callTimes: number[] = [];
const endTimes: number[] = [];
const whole: number[] = [];
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  const b = new Worker(bare);
  b.postMessage(1);
  await once(b);
  bootBare.push(performance.now() - t);
  b.terminate();
  await closed(b);

  t = performance.now();
  const w = new Worker(workerUrl().href, { type: "module" } as WorkerOptions);
  w.postMessage({ kind: "prepare", buffer: createBridgeBuffer(), warm: false });
  await once(w, "ready");
  bootOurs.push(performance.now() - t);
  t = performance.now();
  w.postMessage({ kind: "call", mode: "invoke", modulePath: toolPath, exportName: "execute", args: [{ n: i }], data });
  const reply = await once<{ kind: string }>(w);
  callTimes.push(performance.now() - t);
  if (reply.kind !== "returned") throw new Error(JSON.stringify(reply));
  t = performance.now();
  w.terminate();
  await closed(w);
  endTimes.push(performance.now() - t);

  // A whole call with no spare, as the runtime makes one: spawn, call with the buffer, end.
  t = performance.now();
  const x = new Worker(workerUrl().href, { type: "module" } as WorkerOptions);
  x.postMessage({ kind: "call", mode: "invoke", modulePath: toolPath, exportName: "execute", args: [{ n: i }], data, buffer: createBridgeBuffer() });
  await once(x);
  whole.push(performance.now() - t);
  x.terminate();
  await closed(x);
}
const realm: number[] = [];
for (let i = 0; i < 500; i++) {
  const t = performance.now();
  const c = createContext({});
  runInContext(`var module = { exports: {} }; (function (module) { module.exports = { execute(ctx, a) { return "ok " + a.n; } }; })(module); module.exports.execute(null, { n: ${i} })`, c);
  realm.push(performance.now() - t);
}
const skip = (xs: number[]) => xs.slice(10);
report("boot of a bare worker (to its first answer)", skip(bootBare), "ms");
report("boot of the invoke worker (to ready)", skip(bootOurs), "ms");
report("call in a booted worker (load, ctx, run)", skip(callTimes), "ms");
report("end of a worker (terminate to close)", skip(endTimes), "ms");
report("whole call with no spare (spawn to answer)", skip(whole), "ms");
report("fresh vm realm, compile and call", realm.slice(50), "ms");
