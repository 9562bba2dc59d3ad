import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

let runtime: Runtime;
let box: Sandbox;
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

const call = (path: string, args: unknown[] = [{}], exportName = "execute") =>
  runtime.invoke({ modulePath: path, exportName, args, context: box.context() });

describe("invoke", () => {
  test("calls the export with ctx and the arguments and returns a clone of its value", async () => {
    const path = box.tool("echo", "return { got: args, workdir: ctx.workdir };");
    const outcome = await call(path, [{ a: [1, 2] }]);
    expect(outcome).toEqual({
      kind: "returned",
      value: { got: { a: [1, 2] }, workdir: box.workdir },
      type: "an object",
    });
  });

  test("gives every invocation a fresh context: globals and module state do not survive", async () => {
    const path = box.module(
      "count",
      "let n = 0; globalThis.g = (globalThis.g || 0) + 1; module.exports = { execute() { n++; return n + ',' + globalThis.g; } };",
    );
    expect(await call(path)).toMatchObject({ value: "1,1" });
    expect(await call(path)).toMatchObject({ value: "1,1" });
  });

  test("describes what came back, for error messages", async () => {
    const cases: Array<[string, string]> = [
      ["return 42;", "a number"],
      ["return true;", "a boolean"],
      ["return [1];", "an array"],
      ["return null;", "null"],
      ["return;", "undefined"],
      ["return { nope: 1 };", "an object"],
      ["return Promise.resolve('x');", "a Promise"],
      ["return function () {};", "a function"],
    ];
    for (const [i, [body, type]] of cases.entries()) {
      const outcome = await call(box.tool(`t${i}`, body));
      expect(outcome).toMatchObject({ kind: "returned", type });
    }
  });

  test("a throw becomes its message, without our own file paths", async () => {
    expect(await call(box.tool("boom", "throw new Error('boom');"))).toEqual({ kind: "threw", message: "boom" });
    expect(await call(box.tool("ref", "return notDefined + 1;"))).toMatchObject({
      kind: "threw",
      message: expect.stringContaining("ReferenceError"),
    });
    expect(await call(box.tool("str", "throw 'plain text';"))).toEqual({ kind: "threw", message: "plain text" });
    const missing = await call(box.tool("req", "return require('./nowhere.js');"));
    expect(missing.kind).toBe("threw");
    if (missing.kind === "threw") {
      expect(missing.message).toContain("nowhere.js");
      expect(missing.message).not.toContain("invoke-worker");
      expect(missing.message).not.toContain("Require stack");
    }
  });

  test("an empty export name calls module.exports itself (provider modules), and refuses one that is not a function", async () => {
    const provider = box.module(
      "acme",
      "module.exports = function (ctx, extra) { return { base_url: 'http://x', dir: ctx.workdir, extra }; };",
    );
    expect(await call(provider, [7], "")).toEqual({
      kind: "returned",
      value: { base_url: "http://x", dir: box.workdir, extra: 7 },
      type: "an object",
    });
    const notFunction = await call(box.module("obj", "module.exports = { protocol: 'anthropic' };"), [], "");
    expect(notFunction).toEqual({ kind: "load-failed", message: "module.exports is not a function (it is an object)" });
  });

  test("a module that does not load, or lacks the export, is a load failure", async () => {
    const syntax = await call(box.module("syntax", "module.exports = { execute( {"));
    expect(syntax).toMatchObject({ kind: "load-failed", message: expect.stringContaining("SyntaxError") });
    const top = await call(box.module("top", "throw new Error('at load time');"));
    expect(top).toEqual({ kind: "load-failed", message: "at load time" });
    const none = await call(box.module("none", "module.exports = { other() {} };"));
    expect(none).toEqual({ kind: "load-failed", message: 'the module does not export a function "execute"' });
  });

  test("process.exit inside a module ends only its context", async () => {
    const outcome = await call(box.tool("exit", "process.exit(3);"));
    expect(outcome).toMatchObject({ kind: "threw", message: expect.stringContaining("process.exit") });
    expect(await call(box.tool("after", "return 'still here';"))).toMatchObject({ value: "still here" });
  });

  test("process.abort inside a module throws, failing its call only: at load time too, and through require('node:process')", async () => {
    const refused = "process.abort() would end Rienda itself, not only this call; throw an Error to fail the call";
    expect(await call(box.tool("abort", "process.abort();"))).toEqual({ kind: "threw", message: refused });
    expect(await call(box.tool("required", "require('node:process').abort();"))).toEqual({
      kind: "threw",
      message: refused,
    });
    expect(
      await call(box.module("top-abort", "process.abort(); module.exports = { execute() { return 'x'; } };")),
    ).toEqual({ kind: "load-failed", message: refused });
    expect(
      await call(box.tool("caught", "try { process.abort(); } catch (e) { return 'caught: ' + e.message; }")),
    ).toMatchObject({ value: `caught: ${refused}` });
    expect(await call(box.tool("after-abort", "return 'still here';"))).toMatchObject({ value: "still here" });
  });

  test("require finds node: built-ins and packages in the module's own node_modules", async () => {
    const path = box.tool("deps", "return require('node:path').join('a', 'b') + ' ' + require('leftpad')('x');");
    box.write(path.replace("index.js", "node_modules/leftpad/index.js"), "module.exports = (s) => '>>' + s;");
    expect(await call(path)).toMatchObject({ value: "a/b >>x" });
  });

  test("calls hook-style exports with several arguments and `this` bound to the module", async () => {
    const path = box.module(
      "hook",
      "module.exports = { tag: 'T', afterToolExecute(ctx, call, result) { return { text: this.tag + call.name + result.text }; } };",
    );
    const outcome = await call(path, [{ name: "shell" }, { text: "!" }], "afterToolExecute");
    expect(outcome).toMatchObject({ value: { text: "Tshell!" } });
  });

  test("console output of a module goes to the front end log, not to stdout", async () => {
    await call(box.tool("console", "console.log('to the log', 1); return 'ok';"));
    expect(box.recorded.logs).toEqual(["to the log 1"]);
  });

  test("process.stdout and process.stderr, also reached through require('node:process'), write to the log; the rest of process works as before", async () => {
    const body = [
      "process.stdout.write('global out\\n');",
      "require('node:process').stderr.write(Buffer.from('required err'));",
      "require('process').stdout.write('plain name', () => {});",
      "process.exitCode = 0; process.on('x', () => {});",
      "return [require('node:process') === process, typeof process.cwd(), process.listenerCount('x'), Object.prototype.toString.call(process), typeof Object.getOwnPropertyDescriptor(process, 'stdout').value.write];",
    ].join(" ");
    const outcome = await call(box.tool("streams", body));
    expect(outcome).toEqual({
      kind: "returned",
      value: [true, "string", 1, "[object process]", "function"],
      type: "an array",
    });
    expect(box.recorded.logs).toEqual(["global out", "required err", "plain name"]);
  });

  test("fs writes to descriptor 1 (sync, async, whole-file, appending, vectors) go to the log too; other descriptors are untouched", async () => {
    const file = `${box.workdir}/out.txt`;
    const body = [
      "const fs = require('node:fs');",
      "fs.writeSync(1, 'sync string\\n');",
      "fs.writeSync(1, Buffer.from('xxsync bufferxx'), 2, 11);",
      "fs.writeFileSync(1, 'whole file');",
      "fs.appendFileSync(1, Buffer.from('appended'));",
      "fs.writevSync(1, [Buffer.from('vec'), Buffer.from('tor')]);",
      `fs.writeFileSync(${JSON.stringify(file)}, 'to a file');`,
      "let calledBack = 0; fs.write(1, 'async', (err, n) => { calledBack = n; });",
      `return [require('fs') === fs, fs.readFileSync(${JSON.stringify(file)}, 'utf8'), fs.writeSync(1, 'n\\n')];`,
    ].join(" ");
    const outcome = await call(box.tool("fsout", body));
    expect(outcome).toEqual({ kind: "returned", value: [true, "to a file", 2], type: "an array" });
    expect(box.recorded.logs).toEqual(["sync string", "sync buffer", "whole file", "appended", "vector", "async", "n"]);
  });

  test("a value that cannot be cloned comes back in its JSON form", async () => {
    const outcome = await call(box.tool("fn", "return { text: 'ok', helper() {} };"));
    expect(outcome).toEqual({ kind: "returned", value: { text: "ok" }, type: "an object" });
  });

  test("a field JSON cannot carry either (a BigInt, a cycle, a throwing getter) is left out, the others come back", async () => {
    const body =
      "const cycle = {}; cycle.self = cycle; return { text: 'ok', isError: true, helper() {}, big: 1n, sym: Symbol('s'), cycle, get bad() { throw new Error('no'); } };";
    expect(await call(box.tool("mixed", body))).toEqual({
      kind: "returned",
      value: { text: "ok", isError: true },
      type: "an object",
    });
    // Nothing to copy at all: no value, but the type says what it was.
    expect(await call(box.tool("symbol", "return Symbol('s');"))).toEqual({
      kind: "returned",
      value: undefined,
      type: "a symbol",
    });
  });
});

describe("inspect", () => {
  test("reports the export shape with JSON values copied out", async () => {
    const path = box.module(
      "shape",
      "module.exports = { description: 'd', parameters: { type: 'object' }, execute() {}, n: 3 };",
    );
    const outcome = await runtime.inspect(path);
    expect(outcome).toEqual({
      kind: "loaded",
      shape: {
        type: "an object",
        members: {
          description: { type: "a string", value: "d" },
          parameters: { type: "an object", value: { type: "object" } },
          execute: { type: "a function" },
          n: { type: "a number", value: 3 },
        },
      },
    });
  });

  test("reports a module that fails to evaluate", async () => {
    expect(await runtime.inspect(box.module("bad", "throw new TypeError('nope');"))).toEqual({
      kind: "load-failed",
      message: "TypeError: nope",
    });
  });

  test("gives up on a module that never finishes loading", async () => {
    const slow = createRuntime({ inspectTimeoutMs: 200 });
    try {
      const outcome = await slow.inspect(box.module("loop", "while (true) {}"));
      expect(outcome).toMatchObject({
        kind: "load-failed",
        message: expect.stringContaining("did not finish loading"),
      });
    } finally {
      await slow.close();
    }
  });
});

describe("inspectAll", () => {
  test("reports every module in input order, each with its own outcome", async () => {
    const paths = [
      box.module("a", "module.exports = { description: 'a', execute() {} };"),
      box.module("bad", "throw new TypeError('nope');"),
      box.module("syntax", "module.exports = { execute( {"),
      box.module("b", "module.exports = { description: 'b', n: 2 };"),
      box.module("fn", "module.exports = function () {};"),
      box.module("c", "module.exports = { description: 'c' };"),
    ];
    const outcomes = await runtime.inspectAll(paths);
    expect(outcomes.map((o) => o.kind)).toEqual(["loaded", "load-failed", "load-failed", "loaded", "loaded", "loaded"]);
    expect(outcomes[0]).toEqual({
      kind: "loaded",
      shape: {
        type: "an object",
        members: { description: { type: "a string", value: "a" }, execute: { type: "a function" } },
      },
    });
    expect(outcomes[1]).toEqual({ kind: "load-failed", message: "TypeError: nope" });
    expect(outcomes[2]).toMatchObject({ kind: "load-failed", message: expect.stringContaining("SyntaxError") });
    expect(outcomes[3]).toMatchObject({ shape: { members: { description: { value: "b" }, n: { value: 2 } } } });
    expect(outcomes[4]).toEqual({ kind: "loaded", shape: { type: "a function", members: {} } });
    expect(outcomes[5]).toMatchObject({ shape: { members: { description: { value: "c" } } } });
  });

  test("a module that ends its worker or never finishes loading is reported alone; the others still load", async () => {
    const slow = createRuntime({ inspectTimeoutMs: 500 });
    try {
      const good = (n: number) => box.module(`good${n}`, `module.exports = { description: 'good ${n}' };`);
      const paths = [
        good(1),
        box.module("exit", "process.exit(4);"),
        good(2),
        box.module("loop", "while (true) {}"),
        good(3),
        // Throws later, from a timer: blamed on whichever module loads next in
        // the same worker, unless that module is checked again alone.
        box.module(
          "late",
          "setTimeout(() => { throw new Error('late'); }, 1); module.exports = { description: 'late' };",
        ),
        good(4),
        good(5),
      ];
      const outcomes = await slow.inspectAll(paths);
      const described = outcomes.map((o) =>
        o.kind === "loaded"
          ? String(o.shape.members.description?.value)
          : `${o.kind}: ${"message" in o ? o.message : ""}`,
      );
      expect(described[0]).toBe("good 1");
      expect(described[1]).toContain("process.exit");
      expect(described[2]).toBe("good 2");
      expect(described[3]).toContain("did not finish loading within 500 ms");
      expect(described[4]).toBe("good 3");
      expect(described[5]).toBe("late");
      expect(described.slice(6)).toEqual(["good 4", "good 5"]);
    } finally {
      await slow.close();
    }
  });

  test("no module's load changes how another one is seen, whichever lane it shares", async () => {
    const shared = box.write(`${box.modules}/shared/lib.js`, "module.exports = { count: 0 };");
    const source = `
      const fs = require('node:fs');
      const lib = require(${JSON.stringify(shared)});
      const seen = {
        proto: ({}).polluted, push: Array.prototype.push.name, fs: fs.readFileSync.name, env: process.env.RIENDA_TAINT_PROBE,
        lib: lib.count++, json: JSON.parse.name, iter: [][Symbol.iterator]().next.name, leaked: typeof globalThis.leaked,
        date: typeof Date.prototype.patched, promise: typeof Promise.patched, cached: typeof require('node:module').prototype.patched,
      };
      const description = JSON.stringify(seen);
      Object.prototype.polluted = 1;
      Array.prototype.push = function fake() {};
      fs.readFileSync = function fake() {};
      process.env.RIENDA_TAINT_PROBE = 'leaked';
      JSON.parse = function fake() {};
      Object.getPrototypeOf([][Symbol.iterator]()).next = function fake() {};
      globalThis.leaked = 1;
      Date.prototype.patched = 1;
      Promise.patched = 1;
      require('node:module').prototype.patched = 1;
      Object.keys = () => [];
      module.exports = { description, n: 1 };`;
    // More modules than lanes: some lane loads several of them one after another.
    const paths = Array.from({ length: 6 }, (_, i) => box.module(`patcher${i}`, source));
    try {
      const outcomes = await runtime.inspectAll(paths);
      const pristine = JSON.stringify({
        push: "push",
        fs: "readFileSync",
        lib: 0,
        json: "parse",
        iter: "next",
        leaked: "undefined",
        date: "undefined",
        promise: "undefined",
        cached: "undefined",
      });
      for (const outcome of outcomes) {
        expect(outcome).toEqual({
          kind: "loaded",
          shape: {
            type: "an object",
            members: { description: { type: "a string", value: pristine }, n: { type: "a number", value: 1 } },
          },
        });
      }
    } finally {
      delete process.env.RIENDA_TAINT_PROBE;
    }
  });

  test("harmless modules share their lane's worker: one module's load does not make the next start over", async () => {
    const cold = createRuntime();
    try {
      const source = "module.exports = { description: String(require('node:worker_threads').threadId) };";
      const paths = Array.from({ length: 8 }, (_, i) => box.module(`harmless${i}`, source));
      const outcomes = await cold.inspectAll(paths);
      const threads = new Set(outcomes.map((o) => (o.kind === "loaded" ? o.shape.members.description?.value : o.kind)));
      expect([...threads].every((t) => typeof t === "string" && /^\d+$/.test(t))).toBe(true);
      // Two lanes: two workers for eight modules.
      expect(threads.size).toBeLessThanOrEqual(2);
    } finally {
      await cold.close();
    }
  });

  test("an empty list needs no worker", async () => {
    expect(await runtime.inspectAll([])).toEqual([]);
  });
});
