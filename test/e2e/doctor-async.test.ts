/** rienda doctor on tools and hooks written as if they could be asynchronous. */
import { afterEach, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";

let inst: Instance | undefined;
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

const CONFIG = "providers:\n  r:\n    protocol: replay\n    script: replay/x.yaml\n    models: { m: {} }\n";

test("an async execute or handler is a problem with a fix (yet it loads); an execute using promises is a warning", async () => {
  inst = new Instance();
  inst.config(CONFIG);
  inst.write(inst.riendaPath("replay/x.yaml"), "- text: hi\n");
  const asyncTool = inst.tool(
    "fetcher",
    `module.exports = { description: "d", parameters: { type: "object", properties: {} }, async execute(ctx) { return "x"; } };`,
  );
  const thenTool = inst.tool(
    "later",
    `module.exports = { description: "d", parameters: { type: "object", properties: {} }, execute(ctx) { return Promise.resolve("x"); } };`,
  );
  const asyncHook = inst.hook("audit", `module.exports = { async afterRun(ctx) {} };`);
  const r = await inst.run(["doctor"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(
    `problem: ${asyncTool}: tool "fetcher": "execute" is an async function: it returns a Promise, so every call ends in an error result (drop "async" and "await": ctx calls return their answers directly)\n` +
      `  fix: remove "async" from execute and every "await" in it: ctx calls return their answers directly (docs/tools.md)\n`,
  );
  expect(r.stdout).toContain(`problem: ${asyncHook}: hook "audit": "afterRun" is an async function`);
  expect(r.stdout).toContain(`warning: ${thenTool}: tool "later": "execute" seems to use promises`);
  expect(r.stdout).toContain("tools         fetcher, later, shell\n");
  expect(r.stdout).toEndWith("2 problems, 1 warning\n");

  // A run that names the tool is told the same before anything is sent, and goes on (tools.md:
  // a Promise is an error result, never a failed run).
  inst.agent("a", "---\ndescription: d\nmodel: r/m\ntools: [fetcher]\n---\n");
  const run = await inst.run(["run", "-a", "a", "-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("hi\n");
  expect(run.stderr).toContain(`tool "fetcher": "execute" is an async function`);
});
