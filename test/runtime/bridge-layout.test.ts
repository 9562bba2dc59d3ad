import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as layout from "../../src/runtime/bridge-layout.ts";

test("the worker entry and the context kernel repeat the bridge layout exactly (they may import little)", () => {
  const read = (name: string) => readFileSync(resolve(import.meta.dir, `../../src/runtime/${name}`), "utf8");
  const worker = read("invoke-worker.ts");
  const kernel = read("context-kernel.ts");
  const constant = (source: string, name: string) => Number(new RegExp(`const ${name} = (\\d+);`).exec(source)?.[1]);
  expect(constant(worker, "STATE")).toBe(layout.STATE);
  expect(constant(worker, "LENGTH")).toBe(layout.LENGTH);
  expect(constant(worker, "STATUS")).toBe(layout.STATUS);
  expect(constant(worker, "HEADER_BYTES")).toBe(layout.HEADER_BYTES);
  expect(constant(worker, "IDLE")).toBe(layout.IDLE);
  expect(constant(worker, "REQUEST")).toBe(layout.REQUEST);
  expect(constant(worker, "RESPONSE")).toBe(layout.RESPONSE);
  expect(constant(worker, "STATUS_TYPE_ERROR")).toBe(layout.STATUS_TYPE_ERROR);
  expect(constant(kernel, "INTERRUPT")).toBe(layout.INTERRUPT);
  expect(constant(kernel, "GROUP_COUNT")).toBe(layout.GROUP_COUNT);
  expect(constant(kernel, "SPAWNING")).toBe(layout.SPAWNING);
  expect(constant(kernel, "GROUP_FIRST")).toBe(layout.GROUP_FIRST);
  expect(constant(kernel, "GROUP_SLOTS")).toBe(layout.GROUP_SLOTS);
  // Every spawn loads what the worker imports: the kernel, which imports types only (erased at build).
  const imports = (source: string) => [...source.matchAll(/^\s*import\s+(?!type\s)[^;]*from\s+"([^"]+)"/gm)].map((m) => m[1]);
  expect(imports(worker)).toEqual(["./context-kernel.ts"]);
  expect(imports(kernel)).toEqual([]);
  expect(worker).not.toMatch(/\bimport\s*\(\s*["'](?!node:module)/);
  expect(kernel).not.toMatch(/\bimport\s*\(/);
});

test("the table of process groups fits before the payload", () => {
  expect(layout.GROUPS_ENDED).toBeGreaterThan(layout.STATUS);
  expect(layout.GROUP_COUNT).toBeGreaterThan(layout.STATUS);
  expect(new Set([layout.STATE, layout.INTERRUPT, layout.LENGTH, layout.STATUS, layout.GROUP_COUNT, layout.GROUPS_ENDED, layout.SPAWNING]).size).toBe(7);
  expect(layout.GROUP_FIRST).toBeGreaterThan(Math.max(layout.GROUP_COUNT, layout.GROUPS_ENDED, layout.SPAWNING));
  expect((layout.GROUP_FIRST + layout.GROUP_SLOTS) * 4).toBe(layout.HEADER_BYTES);
});

test("a bridge buffer starts small and can grow to the maximum", () => {
  const buffer = layout.createBridgeBuffer() as SharedArrayBuffer & { growable: boolean; maxByteLength: number };
  expect(buffer.byteLength).toBe(layout.INITIAL_BYTES);
  expect(buffer.growable).toBe(true);
  expect(buffer.maxByteLength).toBe(layout.MAX_BYTES);
});
