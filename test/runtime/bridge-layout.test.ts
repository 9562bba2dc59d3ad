import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as layout from "../../src/runtime/bridge-layout.ts";

test("the worker entry repeats the bridge layout exactly (it may import types only)", () => {
  const worker = readFileSync(resolve(import.meta.dir, "../../src/runtime/invoke-worker.ts"), "utf8");
  const constant = (name: string) => Number(new RegExp(`const ${name} = (\\d+);`).exec(worker)?.[1]);
  expect(constant("STATE")).toBe(layout.STATE);
  expect(constant("INTERRUPT")).toBe(layout.INTERRUPT);
  expect(constant("LENGTH")).toBe(layout.LENGTH);
  expect(constant("STATUS")).toBe(layout.STATUS);
  expect(constant("GROUP_COUNT")).toBe(layout.GROUP_COUNT);
  expect(constant("SPAWNING")).toBe(layout.SPAWNING);
  expect(constant("GROUP_FIRST")).toBe(layout.GROUP_FIRST);
  expect(constant("GROUP_SLOTS")).toBe(layout.GROUP_SLOTS);
  expect(constant("HEADER_BYTES")).toBe(layout.HEADER_BYTES);
  expect(constant("IDLE")).toBe(layout.IDLE);
  expect(constant("REQUEST")).toBe(layout.REQUEST);
  expect(constant("RESPONSE")).toBe(layout.RESPONSE);
  expect(constant("STATUS_TYPE_ERROR")).toBe(layout.STATUS_TYPE_ERROR);
  // Type imports are erased at build; anything else would be loaded by every spawn.
  expect(worker).not.toMatch(/^\s*import\s+(?!type\s)/m);
  expect(worker).not.toMatch(/\bimport\s*\(\s*["'](?!node:module)/);
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
