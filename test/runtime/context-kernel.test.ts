/**
 * The context kernel runs in a ShadowRealm from its source text, so it must
 * refer to nothing outside itself: evaluated in a realm of its own, with
 * only the two functions it is given, it loads a module, builds ctx and
 * answers.
 */
import { afterAll, expect, test } from "bun:test";
import { kernelSource } from "../../src/runtime/context/kernel-source.ts";
import { Sandbox } from "./support.ts";

const box = new Sandbox();
afterAll(() => box.dispose());

type Realm = { evaluate(source: string): unknown };
const ShadowRealm = (globalThis as unknown as { ShadowRealm: new () => Realm }).ShadowRealm;

test("evaluated from its source in a realm of its own, the kernel runs a call through the functions it is given only", () => {
  const modulePath = box.tool(
    "kernel-probe",
    `ctx.log("hello", { n: 1 }); return ctx.env.get("NAME") + " " + ctx.config.level + " " + args.n;`,
  );
  const requests: string[] = [];
  const exchange = (request: string) => {
    requests.push(request);
    return JSON.parse(request)[0] === "env.get" ? 'R"from host"' : "R";
  };
  const words: Array<string | number> = [];
  const word = (op: string, index: number) => {
    words.push(op, index);
    return 0;
  };
  const call = new ShadowRealm().evaluate(`(exchange, word, modulePath) => {
    const getBuiltin = process.getBuiltinModule;
    const Module = getBuiltin.call(process, "node:module");
    const load = (p) => (p.startsWith("node:") ? getBuiltin.call(process, p) : Module.createRequire(p)(p));
    const kernel = (${kernelSource()})(exchange, word, "file:///rienda/self.js", load);
    const reply = kernel.run({ kind: "call", mode: "invoke", modulePath, exportName: "execute", args: [{ n: 3 }], data: { workdir: "/w", session: null, agent: null, config: { level: 2 } } }, load);
    return JSON.stringify(reply);
  }`) as (exchange: (r: string) => string, word: (op: string, index: number) => number, modulePath: string) => string;
  expect(JSON.parse(call(exchange, word, modulePath))).toEqual({
    kind: "returned",
    value: "from host 2 3",
    type: "a string",
  });
  expect(requests.map((r) => JSON.parse(r))).toEqual([
    ["log", 'hello {"n":1}'],
    ["env.get", "NAME"],
  ]);
});

test("an interrupted bridge fails the ctx call with the interruption error", () => {
  const modulePath = box.tool(
    "kernel-interrupted",
    `try { ctx.file.read("x"); } catch (e) { return e.message; } return "read";`,
  );
  const call = new ShadowRealm().evaluate(`(exchange, modulePath) => {
    const Module = process.getBuiltinModule("node:module");
    const load = (p) => (p.startsWith("node:") ? process.getBuiltinModule(p) : Module.createRequire(p)(p));
    const kernel = (${kernelSource()})(exchange, () => 0, "file:///rienda/self.js", load);
    return JSON.stringify(kernel.run({ kind: "call", mode: "invoke", modulePath, exportName: "execute", args: [{}], data: { workdir: "/w", session: null, agent: null, config: {} } }, load));
  }`) as (exchange: (r: string) => string, modulePath: string) => string;
  expect(JSON.parse(call(() => "I", modulePath))).toEqual({
    kind: "returned",
    value: "the call was interrupted",
    type: "a string",
  });
});
