/**
 * Tools and hooks whose functions are asynchronous: loaded when declared
 * async, with a diagnostic saying every call fails (tools.md makes a
 * Promise an error result, hooks.md says a hook never fails a run);
 * warned about when they use promises.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brokenExtension, discoverHooks, discoverTools } from "../../src/extensions/index.ts";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { createToolRunner } from "../../src/tools/index.ts";

let runtime: Runtime;
let dir: string;
const runner = createToolRunner();
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rienda-async-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function put(relative: string, source: string): string {
  const path = join(dir, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, source);
  return path;
}

const tool = (execute: string) =>
  `module.exports = { description: "d", parameters: { type: "object", properties: {} }, ${execute} };`;

describe("asynchronous tools", () => {
  test("an async execute loads with a diagnostic saying every call ends in an error result; a call is that error result", async () => {
    put("tools/slow/index.js", tool("async execute(ctx) { return 'x'; }"));
    put("tools/arrow/index.js", tool("execute: async (ctx) => 'x'"));
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.tools.map((t) => t.name)).toEqual(["arrow", "shell", "slow"]);
    expect(catalog.diagnostics.map((d) => [d.name, d.warning, d.failsEveryCall])).toEqual([
      ["arrow", true, true],
      ["slow", true, true],
    ]);
    expect(catalog.diagnostics[1]!.message).toBe(
      'tool "slow": "execute" is an async function: it returns a Promise, so every call ends in an error result (drop "async" and "await": ctx calls return their answers directly)',
    );
    // Loaded, so an agent naming it is not stopped by it.
    expect(brokenExtension("tool", "slow", catalog)).toBeUndefined();
  });

  test("a plain execute that uses promises loads, with a warning", async () => {
    put("tools/then/index.js", tool("execute(ctx) { return fetch('http://x').then((r) => r.text()); }"));
    put("tools/fine/index.js", tool("execute(ctx) { return 'promised'; }"));
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.tools.map((t) => t.name)).toEqual(["fine", "shell", "then"]);
    expect(catalog.diagnostics).toHaveLength(1);
    expect(catalog.diagnostics[0]).toMatchObject({ name: "then", warning: true });
    expect(catalog.diagnostics[0]!.message).toStartWith('tool "then": "execute" seems to use promises');
  });
});

describe("asynchronous hooks", () => {
  test("an async handler loads with a diagnostic; a handler using promises loads with a warning", async () => {
    put("hooks/late/index.js", "module.exports = { async beforeRun(ctx) {}, afterRun(ctx) {} };");
    put(
      "hooks/hopeful/index.js",
      "module.exports = { afterRun(ctx) { Promise.resolve().then(() => ctx.log('x')); } };",
    );
    const catalog = await discoverHooks({ riendaDir: dir, runtime });
    expect(catalog.hooks.map((h) => h.name)).toEqual(["hopeful", "late"]);
    const late = catalog.diagnostics.find((d) => d.name === "late")!;
    expect(late).toMatchObject({ warning: true, failsEveryCall: true });
    expect(late.problem).toBe(
      '"beforeRun" is an async function: it returns a Promise, so every call is reported and ignored (drop "async" and "await": ctx calls return their answers directly)',
    );
    expect(catalog.diagnostics.find((d) => d.name === "hopeful")).toMatchObject({ warning: true });
  });
});
