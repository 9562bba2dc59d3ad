// Issue 16: what a tool's code sees of its environment in each context design.
// The vm prototype was set aside for this (objects of built-ins from another
// realm); a ShadowRealm, the shipped realm design, gives the realm its own
// built-ins. Each probe is a tool whose execute returns a string; a design
// should answer as a worker does, where a module runs as it would in Bun ("≠"
// marks a difference). `bun bench/realm/compat-report.ts` prints one line per probe.
import { createRuntime } from "../../src/runtime/index.ts";
import type { Runtime } from "../../src/runtime/types.ts";
import { Sandbox } from "../../test/runtime/support.ts";
import { createRealmRuntime } from "./realm-runtime.ts";

const PROBES: Record<string, string> = {
  "fs.readFileSync: a Buffer, a Uint8Array": `const b = require("node:fs").readFileSync(__filename); return [Buffer.isBuffer(b), b instanceof Uint8Array, b.length > 0].join(" ");`,
  "fs error: an Error with a code": `try { require("node:fs").readFileSync("/nonexistent/x"); } catch (e) { return [e instanceof Error, e.code].join(" "); }`,
  "an async execute: a Promise, never settled": `return require("node:fs").promises.readFile(__filename).then(() => "settled");`,
  "a Buffer of fs read by an ES module": `return require("./read.mjs").kind;`,
  "child_process.execSync": `return require("node:child_process").execSync("echo hi").toString().trim() + " " + (require("node:child_process").execSync("true") instanceof Uint8Array);`,
  "spawnSync of a command printing to stdout": `return require("node:child_process").spawnSync("echo", ["out"]).stdout.toString().trim();`,
  "execSync with inherited stderr": `require("node:child_process").execSync("echo to-stderr >&2", { stdio: "inherit" }); return "ok";`,
  "crypto.createHash": `return require("node:crypto").createHash("sha256").update("x").digest("hex").slice(0, 8);`,
  "require an ES module file": `return require("./esm.mjs").answer;`,
  "a JSON file": `return require("./data.json").name;`,
  "process.env and process.cwd()": `return typeof process.env.PATH + " " + (process.cwd() === require("node:process").cwd());`,
  "console.log goes to the log": `console.log("printed"); return "ok";`,
  "process.stdout.write goes to the log": `process.stdout.write("written\\n"); return "ok";`,
  "Error subclass and stack": `class E extends Error {} const e = new E("m"); return [e instanceof Error, typeof e.stack].join(" ");`,
  "structuredClone of a Map": `const m = structuredClone(new Map([[1, 2]])); return [m instanceof Map, m.get(1)].join(" ");`,
  "fetch is a function": `return typeof fetch;`,
  "process.abort() fails only the call": `try { process.abort(); } catch { return "threw"; } return "returned";`,
  "TextEncoder result": `return String(new TextEncoder().encode("x") instanceof Uint8Array);`,
  "globalThis.process === require('process')": `return String(globalThis.process === require("process"));`,
};

const box = new Sandbox();
const paths = Object.entries(PROBES).map(([name, body], i) => {
  const path = box.module(`probe${i}`, `module.exports = { execute(ctx, args) {\n${body}\n} };`);
  box.write(path.replace(/index\.js$/, "esm.mjs"), "export const answer = 'esm loaded';");
  box.write(path.replace(/index\.js$/, "data.json"), '{ "name": "json loaded" }');
  box.write(
    path.replace(/index\.js$/, "read.mjs"),
    'import { readFileSync } from "node:fs"; const b = readFileSync(new URL(import.meta.url).pathname); export const kind = [b instanceof Uint8Array, Buffer.isBuffer(b)].join(" ");',
  );
  return { name, path };
});
const context = box.context();
const shadowRealms: Runtime = createRuntime({ contexts: "realms" });
shadowRealms.expectCalls();
await shadowRealms.settled();
const designs = {
  worker: createRuntime({ contexts: "workers" }),
  vm: createRealmRuntime(),
  shadow: shadowRealms,
};
const answer = async (design: keyof typeof designs, path: string) => {
  if (design === "shadow") {
    // A probe that ended the helper (process.abort) leaves none, and the runtime would run the next probe in a worker.
    shadowRealms.expectCalls();
    await shadowRealms.settled();
  }
  box.recorded.logs.length = 0;
  const outcome = await designs[design].invoke({ modulePath: path, exportName: "execute", args: [{}], context });
  const logged = box.recorded.logs.length ? ` [log: ${box.recorded.logs.join("|").trim()}]` : "";
  return (
    (outcome.kind === "returned"
      ? String(outcome.value)
      : `${outcome.kind}: ${"message" in outcome ? outcome.message : ""}`) + logged
  );
};
console.log(
  `${"probe".padEnd(44)} ${"worker per call".padEnd(36)} ${"vm realm per call".padEnd(36)} ShadowRealm per call`,
);
let differ = 0;
for (const { name, path } of paths) {
  const w = await answer("worker", path);
  const v = await answer("vm", path);
  const s = await answer("shadow", path);
  if (s !== w) differ++;
  const mark = (x: string) => (x === w ? x : `≠ ${x}`).slice(0, 36).padEnd(36);
  console.log(`${name.padEnd(44)} ${w.slice(0, 36).padEnd(36)} ${mark(v)} ${mark(s)}`);
}
console.log(`ShadowRealm answers differently from a worker in ${differ} of ${paths.length} probes`);
await designs.worker.close();
designs.vm.close();
await designs.shadow.close();
box.dispose();
process.exit(0);
