/**
 * The Buffer freshness cases can fail: in realms without the helper's two
 * guards (the realm's `fs` copying each Buffer, realm-entry.ts; the frozen
 * intrinsics, freeze-intrinsics.ts) they do. The kernel runs here in plain
 * ShadowRealms of this thread, which has neither, so what a call does
 * through a Buffer of this realm reaches the next call's realm. (This
 * replaces a switch that turned the guards off in shipped code.)
 */
import { afterAll, expect, test } from "bun:test";
import { kernelSource } from "../../src/runtime/context/kernel-source.ts";
import { runFreshnessCases } from "./freshness-cases.ts";

type Realm = { evaluate(source: string): unknown };
const ShadowRealm = (globalThis as unknown as { ShadowRealm: new () => Realm }).ShadowRealm;

/** One call in a new, unguarded realm; `ctx` answers nothing. */
function invokeUnguarded(
  modulePath: string,
  args: Record<string, unknown>,
): Promise<{ kind: string; value?: unknown; message?: string }> {
  const run = new ShadowRealm().evaluate(`(modulePath, argsJson) => {
    const getBuiltin = process.getBuiltinModule;
    const Module = getBuiltin.call(process, "node:module");
    const load = (p) => (p.startsWith("node:") ? getBuiltin.call(process, p) : Module.createRequire(p)(p));
    const kernel = (${kernelSource()})(() => "R", () => 0, "file:///rienda/self.js", load);
    const data = { workdir: "/w", session: null, agent: null, config: {} };
    return JSON.stringify(kernel.run({ kind: "call", mode: "invoke", modulePath, exportName: "execute", args: [JSON.parse(argsJson)], data }, load));
  }`) as (modulePath: string, argsJson: string) => string;
  return Promise.resolve(JSON.parse(run(modulePath, JSON.stringify(args))));
}

// The cases patch what this thread's Buffers reach: undone after, for the other tests of this process.
afterAll(() => {
  const buffer = Buffer.from("x");
  for (let p: object | null = buffer; p; p = Object.getPrototypeOf(p))
    for (const name of ["patched", "patchedFromEsm"]) delete (p as Record<string, unknown>)[name];
  for (const o of [buffer.entries(), buffer.buffer, buffer.subarray(0, 1)]) {
    for (let p: object | null = o; p; p = Object.getPrototypeOf(p))
      delete (p as Record<string, unknown>).patchedFromEsm;
  }
  delete (globalThis as Record<string, unknown>).leakedThroughBuffer;
});

test("without the Buffer copy and the frozen intrinsics, the three Buffer cases fail", async () => {
  const results = await runFreshnessCases(
    invokeUnguarded,
    async () => {},
    (c) => c.name.includes("Buffer fs returns"),
  );
  expect(results.map((r) => r.name)).toEqual([
    "a prototype reached through a Buffer fs returns",
    "the host's globals, reached through a Buffer fs returns",
    "prototypes reached through a Buffer fs returns (ES module)",
  ]);
  expect(results.filter((r) => r.ok)).toEqual([]);
});
