import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { createWorkerPool } from "../../src/runtime/worker-pool.ts";
import { workerUrl } from "../../src/runtime/worker-url.ts";
import type { ContextData } from "../../src/tools/index.ts";
import { Sandbox } from "./support.ts";

let box: Sandbox;
let runtime: Runtime | undefined;
beforeEach(() => (box = new Sandbox()));
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  box.dispose();
});

const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dataFor(sessionId: string, config: Record<string, unknown> = {}): ContextData {
  return {
    workdir: box.workdir,
    session: { id: sessionId, agentId: "coder", modelId: "p/m", workdir: box.workdir },
    agent: { name: "coder", description: "d", model: "p/m", tools: ["t"], hooks: [], skills: [], config: {}, systemPrompt: "be brief" },
    config,
  };
}

describe("spare workers", () => {
  test("each call sees its own ctx data, also when spares were prepared with other data", async () => {
    runtime = createRuntime({ spareWorkers: 3 });
    const path = box.tool("who", "return ctx.session.id + ':' + JSON.stringify(ctx.config) + ':' + Object.isFrozen(ctx.config);");
    const call = (data: ContextData) => runtime!.invoke({ modulePath: path, exportName: "execute", args: [{}], context: { ...box.context(), data } });
    const first = dataFor("first", { a: 1 });
    const second = dataFor("second", { b: [2] });
    expect(await call(first)).toMatchObject({ value: 'first:{"a":1}:true' });
    await idle(100); // spares boot and are prepared with `first`
    expect(await call(first)).toMatchObject({ value: 'first:{"a":1}:true' });
    expect(await call(second)).toMatchObject({ value: 'second:{"b":[2]}:true' });
    await idle(100); // idle spares are told about `second`
    expect(await call(second)).toMatchObject({ value: 'second:{"b":[2]}:true' });
    expect(await call(first)).toMatchObject({ value: 'first:{"a":1}:true' });
  });

  test("a spare is as fresh as a new worker: nothing of one call reaches the next", async () => {
    runtime = createRuntime({ spareWorkers: 4 });
    const path = box.module("state", "globalThis.n = (globalThis.n || 0) + 1; module.exports = { execute(ctx) { ctx.config.x = 1; return globalThis.n + ',' + typeof ctx.scratch + ',' + Object.keys(require.cache).filter((k) => !k.includes('invoke-worker')).length; } };");
    const data = dataFor("s");
    for (let i = 0; i < 6; i++) {
      if (i === 3) await idle(100);
      const outcome = await runtime.invoke({ modulePath: path, exportName: "execute", args: [{}], context: { ...box.context(), data } });
      // The config is frozen, the module is the only one loaded, and its globals start over.
      expect(outcome).toMatchObject({ kind: "returned", value: "1,undefined,1" });
    }
  });

  test("setSpares changes how many are kept, and calls keep working at any count", async () => {
    runtime = createRuntime({ spareWorker: false });
    const path = box.tool("n", "return args.n * 2;");
    const call = (n: number) => runtime!.invoke({ modulePath: path, exportName: "execute", args: [{ n }], context: box.context() });
    expect(await call(1)).toMatchObject({ value: 2 });
    runtime.setSpares(5);
    await idle(100);
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await call(i));
    expect(results.map((r) => (r.kind === "returned" ? r.value : r))).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    runtime.setSpares(0);
    expect(await call(21)).toMatchObject({ value: 42 });
  });

  test("arguments that cannot be cloned are an error outcome, not a rejection", async () => {
    runtime = createRuntime();
    const path = box.tool("fn", "return 'never';");
    const outcome = await runtime.invoke({ modulePath: path, exportName: "execute", args: [{ f: () => 1 }], context: box.context() });
    expect(outcome).toMatchObject({ kind: "threw", message: expect.stringContaining("cannot be passed") });
    // The runtime is still usable afterwards.
    expect(await runtime.invoke({ modulePath: box.tool("ok", "return 'ok';"), exportName: "execute", args: [{}], context: box.context() })).toMatchObject({ value: "ok" });
  });
});

describe("worker pool", () => {
  test("keeps the asked number of spares booted, replaces taken ones, and stops them on close", async () => {
    const pool = createWorkerPool(workerUrl(), { spares: 2, quietMs: 0 });
    const taken = [pool.take(), pool.take(), pool.take()];
    // Every take is a different worker, with its own buffer.
    expect(new Set(taken.map((t) => t.worker)).size).toBe(3);
    expect(new Set(taken.map((t) => t.buffer)).size).toBe(3);
    // Nothing was prepared ahead for the very first takes: the call carries the buffer.
    expect(taken[0]!.prepared).toBe(false);
    for (const t of taken) {
      t.worker.terminate();
      pool.release();
    }
    await idle(300);
    const spare = pool.take();
    expect(spare.prepared).toBe(true);
    spare.worker.terminate();
    pool.release();
    pool.close();
    // After close, take() still hands out (unprepared) workers.
    const late = pool.take();
    expect(late.prepared).toBe(false);
    late.worker.terminate();
    pool.release();
  });
});

describe("after the call", () => {
  test("nothing the module left behind runs: no promise callback, no timer", async () => {
    for (const spareWorkers of [0, 1]) {
      runtime = createRuntime({ spareWorkers });
      const path = box.tool(
        `leftovers${spareWorkers}`,
        `const fs = require('node:fs');
         Promise.resolve().then(() => fs.rmSync(args.soon));
         setTimeout(() => fs.rmSync(args.late), 0);
         return 'done';`,
      );
      for (let i = 0; i < 3; i++) {
        const soon = box.file(`soon${i}`, "");
        const late = box.file(`late${i}`, "");
        if (i > 0) await idle(100); // the spare is booted: the call runs in a prepared worker
        const outcome = await runtime.invoke({ modulePath: path, exportName: "execute", args: [{ soon, late }], context: box.context() });
        expect(outcome).toMatchObject({ value: "done" });
        await idle(50);
        expect([spareWorkers, i, existsSync(soon), existsSync(late)]).toEqual([spareWorkers, i, true, true]);
      }
      await runtime.close();
    }
  });
});
