/**
 * The host closes a context's bridge when the call is over (interrupted,
 * crashed). A context blocked in a `ctx` call at that moment must not read
 * its own request back as the answer: it gets an interruption error, and no
 * later `ctx` call reaches anything. Driven over the real worker protocol,
 * without terminating the worker, so the outcome does not depend on timing.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createBridgeBuffer } from "../../src/runtime/bridge-layout.ts";
import { serveBridge } from "../../src/runtime/host/serve-bridge.ts";
import { workerUrl } from "../../src/runtime/host/worker-call.ts";
import { Sandbox } from "./support.ts";

let box: Sandbox;
let worker: Worker | undefined;
beforeEach(() => (box = new Sandbox()));
afterEach(() => {
  worker?.terminate();
  worker = undefined;
  box.dispose();
});

test("closing the bridge while a ctx call waits answers that call with an interruption error", async () => {
  const marker = join(box.workdir, "went-on");
  const path = box.tool(
    "waits",
    `let first;
     try { first = ctx.system.exec('sleep 5'); } catch (e) { first = 'threw: ' + e.message; }
     let second;
     try { second = ctx.file.exists('x'); } catch (e) { second = 'threw: ' + e.message; }
     if (typeof first !== 'string') require('node:fs').writeFileSync(${JSON.stringify(marker)}, JSON.stringify(first));
     return [first, second];`,
  );
  const buffer = createBridgeBuffer();
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  const ops: string[] = [];
  // Answers nothing: the call stays blocked until the bridge is closed.
  const bridge = serveBridge(buffer, (op) => {
    ops.push(op);
    asked();
    return new Promise(() => {});
  });
  worker = new Worker(workerUrl().href, { type: "module" } as WorkerOptions);
  const reply = new Promise<unknown>((resolve) => (worker!.onmessage = (event) => resolve(event.data)));
  worker.postMessage({
    kind: "call",
    mode: "invoke",
    modulePath: path,
    exportName: "execute",
    args: [{}],
    buffer,
    data: box.context().data,
  });
  await requested;
  bridge.close();
  const answer = (await reply) as { kind: string; value: unknown };
  expect(answer.kind).toBe("returned");
  expect(answer.value).toEqual(["threw: the call was interrupted", "threw: the call was interrupted"]);
  expect(ops).toEqual(["system.exec"]);
  expect(existsSync(marker)).toBe(false);
});
