import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as layout from "../../src/runtime/bridge-layout.ts";

test("the context kernel repeats the bridge layout exactly (it imports nothing, to run from its source in a realm)", () => {
  const read = (name: string) => readFileSync(resolve(import.meta.dir, `../../src/runtime/context/${name}`), "utf8");
  const kernel = read("context-kernel.ts");
  const spawns = read("supervise-spawns.ts");
  const constant = (source: string, name: string) => Number(new RegExp(`const ${name} = (\\d+);`).exec(source)?.[1]);
  expect(constant(kernel, "INTERRUPT")).toBe(layout.INTERRUPT);
  expect(constant(spawns, "INTERRUPT")).toBe(layout.INTERRUPT);
  expect(constant(spawns, "GROUP_COUNT")).toBe(layout.GROUP_COUNT);
  expect(constant(spawns, "SPAWNING")).toBe(layout.SPAWNING);
  expect(constant(spawns, "GROUP_FIRST")).toBe(layout.GROUP_FIRST);
  expect(constant(spawns, "GROUP_SLOTS")).toBe(layout.GROUP_SLOTS);
  // Every spawn loads what the worker entry imports: the kernel, its parts and the bridge's end, nothing heavier.
  const imports = (source: string) =>
    [...source.matchAll(/^\s*import\s+(?!type\s)[^;]*from\s+"([^"]+)"/gm)].map((m) => m[1]);
  expect(imports(read("invoke-worker.ts"))).toEqual([
    "./bridge-exchange.ts",
    "./context-kernel.ts",
    "./kernel-source.ts",
  ]);
  expect(imports(read("kernel-source.ts"))).toEqual([
    "./context-kernel.ts",
    "./describe.ts",
    "./route-output.ts",
    "./supervise-spawns.ts",
    "./world-guard.ts",
  ]);
  expect(imports(read("bridge-exchange.ts"))).toEqual(["../bridge-layout.ts"]);
  for (const part of ["context-kernel.ts", "describe.ts", "route-output.ts", "supervise-spawns.ts", "world-guard.ts"]) {
    expect(imports(read(part))).toEqual([]);
    expect(read(part)).not.toMatch(/\bimport\s*\(/);
  }
});

test("the table of process groups fits before the payload", () => {
  expect(layout.GROUPS_ENDED).toBeGreaterThan(layout.STATUS);
  expect(layout.GROUP_COUNT).toBeGreaterThan(layout.STATUS);
  expect(
    new Set([
      layout.STATE,
      layout.INTERRUPT,
      layout.LENGTH,
      layout.STATUS,
      layout.GROUP_COUNT,
      layout.GROUPS_ENDED,
      layout.SPAWNING,
    ]).size,
  ).toBe(7);
  expect(layout.GROUP_FIRST).toBeGreaterThan(Math.max(layout.GROUP_COUNT, layout.GROUPS_ENDED, layout.SPAWNING));
  expect((layout.GROUP_FIRST + layout.GROUP_SLOTS) * 4).toBe(layout.HEADER_BYTES);
});

test("a bridge buffer starts small and can grow to the maximum", () => {
  const buffer = layout.createBridgeBuffer() as SharedArrayBuffer & { growable: boolean; maxByteLength: number };
  expect(buffer.byteLength).toBe(layout.INITIAL_BYTES);
  expect(buffer.growable).toBe(true);
  expect(buffer.maxByteLength).toBe(layout.MAX_BYTES);
});
