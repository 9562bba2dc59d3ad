/**
 * hooks.md read a second time, adversarially, for what the first audit
 * (spec-hooks-audit.test.ts) left out: answers that are objects but not a
 * set of fields, and process state that one call could leave to the next. Black box only: files, argv, the
 * scripted provider's requests, stdout/stderr and --json events.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, scenario, systemOf, toolResultsOf, type JsonEvent, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

function events(stdout: string, type: string): JsonEvent[] {
  return jsonEvents(stdout).filter((e) => e.type === type);
}

/** The agent `coder` with the shell tool and these hooks, the model calling `echo ran` once, then answering. */
async function withHooks(hooks: string[]): Promise<Scenario> {
  const sc = await scenario({ agentFrontmatter: `tools: [shell]\nhooks: [${hooks.join(", ")}]` });
  sc.server.script({ text: "first", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] }, { text: "second" });
  return sc;
}

describe("hooks.md: an answer that is an object but not a set of fields is malformed", () => {
  // `return new Error(...)` where `throw` was meant must not pass silently for "no opinion".
  const answers = [
    { value: 'new Error("returned, not thrown")', shown: "an Error" },
    { value: "new Date(0)", shown: "a Date" },
    { value: 'new Map([["system", "x"]])', shown: "a Map" },
    { value: "/system/", shown: "a RegExp" },
  ];
  test("an Error, a Date, a Map or a RegExp as the answer is reported and treated as no opinion", async () => {
    for (const { value, shown } of answers) {
      s = await withHooks(["odd"]);
      s.inst.hook("odd", `module.exports = { beforeModelRequest() { return ${value}; }, afterToolExecute() { return ${value}; } };`);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect({ value, code: r.code }).toEqual({ value, code: 0 });
      const reported = events(r.stdout, "hook").map((e) => [e.point, e.outcome, e.message]);
      expect({ value, reported }).toEqual({
        value,
        reported: ["beforeModelRequest", "afterToolExecute", "beforeModelRequest"].map((point) => [point, "error", `expected an object, got ${shown}`]),
      });
      expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent.", "You are a test agent."]);
      expect(toolResultsOf(s.server.requests[1]!)).toEqual(["ran"]);
      await s.dispose();
      s = undefined;
    }
  });

  test("an object made by a class of the hook's own, with the fields, still counts", async () => {
    s = await withHooks(["classy"]);
    s.inst.hook("classy", `class Answer { constructor(system) { this.system = system; } } module.exports = { beforeModelRequest(ctx, r) { return new Answer(r.system + " +class"); } };`);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(events(r.stdout, "hook").map((e) => e.outcome)).toEqual(["changed", "changed"]);
    expect(s.server.requests.map(systemOf)).toEqual(["You are a test agent. +class", "You are a test agent. +class"]);
  });
});

describe("hooks.md: every invocation runs in a fresh runtime", () => {
  // process.chdir changes the directory of the whole process: without care it outlives the call
  // that made it, and every later hook and tool (relative paths included) starts somewhere else.
  test("a process.chdir in one call is gone in the next: each call starts in the directory Rienda started in", async () => {
    s = await withHooks(["wander"]);
    s.inst.file("here.txt", "found");
    s.inst.hook(
      "wander",
      `const fs = require("fs");
module.exports = Object.fromEntries(["beforeRun", "beforeModelRequest", "afterModelResponse", "beforeToolExecute", "afterToolExecute", "afterRun"].map((p) => [p, function (ctx) {
  let read; try { read = fs.readFileSync("here.txt", "utf8"); } catch (e) { read = "missing"; }
  ctx.file.write("dirs", p + " " + process.cwd() + " " + read + "\\n", { append: true });
  process.chdir("/");
}]));`,
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const lines = readFileSync(join(s.inst.workspace, "dirs"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(line.split(" ").slice(1)).toEqual([s.inst.workspace, "found"]);
  });
});
