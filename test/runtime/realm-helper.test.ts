/**
 * Invocations in ShadowRealms of the realm helper (realm-helper.ts): each
 * call fresh, in one helper thread; no call can answer for another; a
 * module that ends its context, or a call that is interrupted, costs only
 * that call; a call made while another runs gets a worker of its own.
 */
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { createRuntime, type Outcome, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

const box = new Sandbox();
afterAll(() => box.dispose());

let runtime: Runtime;
beforeEach(async () => {
  runtime = createRuntime({ contexts: "realms" });
  runtime.expectCalls();
  await runtime.settled();
});
afterEach(() => runtime.close());

const invoke = (modulePath: string, args: unknown = {}, signal?: AbortSignal): Promise<Outcome> =>
  runtime.invoke({ modulePath, exportName: "execute", args: [args], context: box.context(signal) });

/** Which thread ran the call, and how many calls its module saw. */
const whereTool = () =>
  box.module(
    "where",
    `let calls = 0;
module.exports = { execute(ctx, args) { calls++; return { thread: require("node:worker_threads").threadId, calls }; } };`,
  );

const returnedValue = (outcome: Outcome) => {
  if (outcome.kind !== "returned") throw new Error(`expected a value, got ${JSON.stringify(outcome)}`);
  return outcome.value as { thread: number; calls: number };
};

test("calls back to back run fresh, each in a new realm of one helper thread", async () => {
  const where = whereTool();
  const first = returnedValue(await invoke(where));
  const second = returnedValue(await invoke(where));
  const third = returnedValue(await invoke(where));
  // The same thread (a worker per call would have a new one each time), and a fresh module each time.
  expect(second.thread).toBe(first.thread);
  expect(third.thread).toBe(first.thread);
  expect([first.calls, second.calls, third.calls]).toEqual([1, 1, 1]);
});

test("a message a realm posts itself is not taken as any call's answer", async () => {
  const forger = box.module(
    "forger",
    `module.exports = { execute(ctx, args) {
  const forged = (n) => JSON.stringify({ kind: "returned", value: "FORGED " + n, type: "a string" });
  for (let i = 0; i < 3; i++) {
    postMessage({ kind: "reply", text: forged(i) });
    postMessage({ kind: "reply", nonce: "0".repeat(32), text: forged(i) });
    require("node:worker_threads").parentPort.postMessage({ kind: "reply", text: forged(i) });
  }
  ctx.sleep(20);
  return "forger's own answer";
} };`,
  );
  const honest = box.tool("honest", `return "honest " + args.n;`);
  expect(await invoke(forger)).toEqual({ kind: "returned", value: "forger's own answer", type: "a string" });
  expect(await invoke(honest, { n: 1 })).toEqual({ kind: "returned", value: "honest 1", type: "a string" });
  expect(await invoke(honest, { n: 2 })).toEqual({ kind: "returned", value: "honest 2", type: "a string" });
});

test("process.exit in a module fails its own call only; the next runs in a new helper", async () => {
  const where = whereTool();
  const before = returnedValue(await invoke(where));
  const exiting = box.tool("exiting", `process.exit(3);`);
  expect(await invoke(exiting)).toEqual({ kind: "threw", message: "the module ended its context (process.exit(3))" });
  const after = returnedValue(await invoke(where));
  expect(after.calls).toBe(1);
  expect(after.thread).not.toBe(before.thread);
});

test("an interrupted busy call ends at once; the next call still runs", async () => {
  const spinning = box.tool("spinning", `for (;;) {}`);
  const controller = new AbortController();
  const pending = invoke(spinning, {}, controller.signal);
  await Bun.sleep(50);
  controller.abort();
  expect(await pending).toEqual({ kind: "interrupted" });
  const where = whereTool();
  expect(returnedValue(await invoke(where)).calls).toBe(1);
  // A new helper takes over for the calls after that one.
  await runtime.settled();
  const [a, b] = [returnedValue(await invoke(where)), returnedValue(await invoke(where))];
  expect(b.thread).toBe(a.thread);
  expect([a.calls, b.calls]).toEqual([1, 1]);
});

test("a call made while another runs gets a worker of its own, and both answer", async () => {
  const slow = box.module(
    "slow",
    `module.exports = { execute(ctx) { ctx.sleep(300); return require("node:worker_threads").threadId; } };`,
  );
  const where = whereTool();
  const realmThread = returnedValue(await invoke(where)).thread;
  const [slowOutcome, quick] = await Promise.all([invoke(slow), Bun.sleep(20).then(() => invoke(where))]);
  expect(slowOutcome).toEqual({ kind: "returned", value: realmThread, type: "a number" });
  expect(returnedValue(quick).thread).not.toBe(realmThread);
  expect(returnedValue(quick).calls).toBe(1);
});

test("an answer reads as a worker's would: kinds structured cloning keeps, what it refuses left out", async () => {
  const kinds = box.tool(
    "kinds",
    `return { when: new Date(5), map: new Map([[1, 2]]), nothing: undefined, helper() {}, text: "kept" };`,
  );
  const outcome = await invoke(kinds);
  expect(outcome.kind).toBe("returned");
  // A function inside: not clonable, so the fields JSON can carry are kept (as from a worker).
  expect(outcome.kind === "returned" && outcome.value).toEqual({
    when: "1970-01-01T00:00:00.005Z",
    map: {},
    text: "kept",
  });
  const error = box.tool("error", `return new TypeError("meant to throw");`);
  const errorOutcome = await invoke(error);
  expect(errorOutcome.kind === "returned" && errorOutcome.value).toBeInstanceOf(TypeError);
  const promise = box.tool("promise", `return Promise.resolve(1);`);
  expect(await invoke(promise)).toEqual({ kind: "returned", value: undefined, type: "a Promise" });
});

test("a helper that cannot start answers 'unavailable', so that the call can run elsewhere", async () => {
  const { createRealmHelpers } = await import("../../src/runtime/host/realm-helper.ts");
  const helpers = createRealmHelpers(new URL("file:///nonexistent/realm-helper-worker.ts"));
  try {
    helpers.prepare();
    const reply = await helpers.run(
      {
        kind: "call",
        mode: "invoke",
        modulePath: whereTool(),
        exportName: "execute",
        args: [{}],
        data: box.context().data,
      },
      () => ({ interrupt() {}, close() {} }),
      new AbortController().signal,
    );
    expect(reply).toEqual({ kind: "unavailable", message: "the realm helper could not start" });
  } finally {
    helpers.close();
  }
});

test("after a call that grew the bridge for a large file, a new helper takes over (the memory is given back)", async () => {
  const where = whereTool();
  const before = returnedValue(await invoke(where)).thread;
  box.file("big.txt", "x".repeat(8 * 1024 * 1024));
  const reader = box.tool("reader", `return String(ctx.file.read("big.txt").length);`);
  expect(await invoke(reader)).toEqual({ kind: "returned", value: String(8 * 1024 * 1024), type: "a string" });
  await runtime.settled();
  const after = returnedValue(await invoke(where));
  expect(after.thread).not.toBe(before);
  expect(after.calls).toBe(1);
});

test("calls that leave promise callbacks holding memory get the helper replaced, so what they hold is freed", async () => {
  // The callback never runs (nothing runs after a call), and it holds 20 MB of its realm alive.
  const leaky = box.module(
    "leaky",
    `module.exports = { execute(ctx, args) {
  const big = new Float64Array(2_500_000).fill(args.n);
  Promise.resolve().then(() => big[0]);
  return require("node:worker_threads").threadId;
} };`,
  );
  const threads = new Set<unknown>();
  for (let n = 0; n < 12; n++) {
    const outcome = await invoke(leaky, { n });
    expect(outcome.kind).toBe("returned");
    threads.add(outcome.kind === "returned" ? outcome.value : undefined);
  }
  // 12 calls x 20 MB left alive: the helper asked to be replaced at least once.
  expect(threads.size).toBeGreaterThan(1);
});
