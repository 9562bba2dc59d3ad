/**
 * Spare workers: booted ahead, prepared with the expected `ctx` data, and
 * as fresh as a worker spawned for the call. Each test waits until the pool
 * says its spares are ready (settled) and checks that the worker it took is
 * a prepared spare, so none can pass by running on a freshly spawned worker.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createRuntime, type ContextData, type Runtime } from "../../src/runtime/index.ts";
import type { CallMessage, WorkerMessage } from "../../src/runtime/worker-messages.ts";
import { createWorkerPool, type FreshWorker, type WorkerPool } from "../../src/runtime/host/worker-pool.ts";
import { workerUrl } from "../../src/runtime/host/worker-url.ts";
import { Sandbox } from "./support.ts";

let box: Sandbox;
let runtime: Runtime | undefined;
let pool: WorkerPool | undefined;
beforeEach(() => (box = new Sandbox()));
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  pool?.close();
  pool = undefined;
  box.dispose();
});

function dataFor(sessionId: string, config: Record<string, unknown> = {}): ContextData {
  return {
    workdir: box.workdir,
    session: { id: sessionId, agentId: "coder", modelId: "p/m", workdir: box.workdir },
    agent: { name: "coder", description: "d", model: "p/m", tools: ["t"], hooks: [], skills: [], agents: [], config: {}, systemPrompt: "be brief" },
    config,
  };
}

/** Runs `execute` of a module in a worker taken from the pool, over the worker protocol; sends data only when given. */
function callIn(fresh: FreshWorker, modulePath: string, data?: ContextData): Promise<WorkerMessage> {
  return new Promise((resolve) => {
    fresh.worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      if (event.data.kind === "ready") return;
      fresh.worker.terminate();
      resolve(event.data);
    };
    const message: CallMessage = { kind: "call", mode: "invoke", modulePath, exportName: "execute", args: [{}], ...(data ? { data } : {}) };
    fresh.worker.postMessage(fresh.prepared ? message : { ...message, buffer: fresh.buffer });
  });
}

describe("the worker pool", () => {
  test("prepares spares with the expected ctx data, and tells idle spares when it changes", async () => {
    pool = createWorkerPool(workerUrl(), { spares: 2, quietMs: 0 });
    const path = box.tool("who", "return ctx.session.id + ':' + JSON.stringify(ctx.config) + ':' + Object.isFrozen(ctx.config);");
    const first = dataFor("first", { a: 1 });
    const second = dataFor("second", { b: [2] });
    pool.expect(first);
    await pool.settled();
    const spare = pool.take();
    expect([spare.prepared, spare.data === first]).toEqual([true, true]);
    // The call carries no data: what the spare was prepared with is used.
    expect(await callIn(spare, path)).toMatchObject({ kind: "returned", value: 'first:{"a":1}:true' });
    pool.release();
    pool.expect(second);
    await pool.settled();
    const told = pool.take();
    expect([told.prepared, told.data === second]).toEqual([true, true]);
    expect(await callIn(told, path)).toMatchObject({ kind: "returned", value: 'second:{"b":[2]}:true' });
    pool.release();
    // Data sent with the call wins over the prepared copy.
    await pool.settled();
    const other = pool.take();
    expect(other.prepared).toBe(true);
    expect(await callIn(other, path, first)).toMatchObject({ kind: "returned", value: 'first:{"a":1}:true' });
    pool.release();
  });

  test("a spare is as fresh as a new worker: globals, prototypes, built-ins and required files start over", async () => {
    pool = createWorkerPool(workerUrl(), { spares: 3, quietMs: 0 });
    box.module("state/lib", "let n = 0; module.exports = { next: () => ++n };");
    const path = box.module(
      "state",
      `const fs = require('node:fs');
       const lib = require('../state/lib/index.js');
       module.exports = { execute(ctx) {
         const seen = [globalThis.n, Object.prototype.polluted, [].push === Array.prototype.push && Array.prototype.push.name, fs.readFileSync.name, lib.next(), JSON.marker];
         globalThis.n = (globalThis.n || 0) + 1;
         Object.prototype.polluted = 'yes';
         Array.prototype.push = function fake() { return 0; };
         fs.readFileSync = function patched() { return 'patched'; };
         JSON.marker = 'patched';
         return JSON.stringify(seen);
       } };`,
    );
    pool.expect(dataFor("s"));
    for (let i = 0; i < 5; i++) {
      await pool.settled();
      const spare = pool.take();
      expect(spare.prepared).toBe(true);
      expect(await callIn(spare, path)).toMatchObject({ kind: "returned", value: JSON.stringify([null, null, "push", "readFileSync", 1, null]) });
      pool.release();
    }
  });

  test("setSpares changes how many are kept ready", async () => {
    pool = createWorkerPool(workerUrl(), { spares: 0, quietMs: 0 });
    await pool.settled();
    const none = pool.take();
    expect(none.prepared).toBe(false);
    none.worker.terminate();
    pool.release();
    for (const count of [3, 1]) {
      pool.setSpares(count);
      await pool.settled();
      // Taken at once, one after another: exactly `count` are prepared, the next is spawned for the call.
      const taken = Array.from({ length: count + 1 }, () => pool!.take());
      expect(taken.map((t) => t.prepared)).toEqual([...Array(count).fill(true), false]);
      expect(new Set(taken.map((t) => t.worker)).size).toBe(count + 1);
      expect(new Set(taken.map((t) => t.buffer)).size).toBe(count + 1);
      for (const t of taken) {
        t.worker.terminate();
        pool.release();
      }
    }
  });

  test("the bridge buffer of an ended worker is used again, clean (a freed 1 GiB-growable buffer costs RSS)", async () => {
    pool = createWorkerPool(workerUrl(), { spares: 0, quietMs: 0 });
    const first = pool.take();
    new Int32Array(first.buffer, 0, 4).set([3, 1, 7, 2]);
    const gone = new Promise((resolve) => first.worker.addEventListener("close", resolve));
    first.worker.terminate();
    pool.release();
    await gone;
    const second = pool.take();
    expect(second.buffer).toBe(first.buffer);
    expect([...new Int32Array(second.buffer, 0, 4)]).toEqual([0, 0, 0, 0]);
    // And a call works over it.
    expect(await callIn(second, box.tool("again", "ctx.sleep(1); return 'over a used buffer';"), dataFor("again"))).toMatchObject({ value: "over a used buffer" });
    pool.release();
  });

  test("after close, take() still hands out workers, unprepared", async () => {
    pool = createWorkerPool(workerUrl(), { spares: 2, quietMs: 0 });
    await pool.settled();
    pool.close();
    await pool.settled();
    const late = pool.take();
    expect(late.prepared).toBe(false);
    expect(await callIn(late, box.tool("late", "return 'still works';"), dataFor("late"))).toMatchObject({ value: "still works" });
    pool.release();
  });
});

describe("the runtime with spares", () => {
  test("calls keep working at any spare count, including none", async () => {
    runtime = createRuntime({ spareWorker: false });
    const path = box.tool("n", "return args.n * 2;");
    const call = (n: number) => runtime!.invoke({ modulePath: path, exportName: "execute", args: [{ n }], context: box.context() });
    expect(await call(1)).toMatchObject({ value: 2 });
    runtime.setSpares(5);
    await runtime.settled();
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await call(i));
    expect(results.map((r) => (r.kind === "returned" ? r.value : r))).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    runtime.setSpares(0);
    expect(await call(21)).toMatchObject({ value: 42 });
  });

  test("arguments that cannot be cloned are an error outcome, not a rejection", async () => {
    runtime = createRuntime();
    await runtime.settled();
    const path = box.tool("fn", "return 'never';");
    const outcome = await runtime.invoke({ modulePath: path, exportName: "execute", args: [{ f: () => 1 }], context: box.context() });
    expect(outcome).toMatchObject({ kind: "threw", message: expect.stringContaining("cannot be passed") });
    // The runtime is still usable afterwards.
    expect(await runtime.invoke({ modulePath: box.tool("ok", "return 'ok';"), exportName: "execute", args: [{}], context: box.context() })).toMatchObject({ value: "ok" });
  });

  test("after the call nothing the module left behind runs: no promise callback, no timer (spawned worker and spare alike)", async () => {
    for (const spareWorkers of [0, 1]) {
      runtime = createRuntime({ spareWorkers });
      const path = box.tool(
        `leftovers${spareWorkers}`,
        `const fs = require('node:fs');
         Promise.resolve().then(() => fs.rmSync(args.soon));
         setTimeout(() => fs.rmSync(args.late), 0);
         return 'done';`,
      );
      const context = box.context();
      for (let i = 0; i < 3; i++) {
        const soon = box.file(`soon${spareWorkers}-${i}`, "");
        const late = box.file(`late${spareWorkers}-${i}`, "");
        // With a spare, the call runs in a prepared one (settled: booted, holding this data).
        await runtime.settled();
        const outcome = await runtime.invoke({ modulePath: path, exportName: "execute", args: [{ soon, late }], context });
        expect(outcome).toMatchObject({ value: "done" });
        await new Promise((r) => setTimeout(r, 50));
        expect([spareWorkers, i, existsSync(soon), existsSync(late)]).toEqual([spareWorkers, i, true, true]);
      }
      await runtime.close();
    }
  });
});
