/**
 * Processes a tool starts itself with node:child_process (or Bun's spawn)
 * end with the call, as those of ctx.system.exec do: when it is interrupted,
 * when it returns, and when a module only looked at started them. Real
 * workers and real processes; each child writes its pid to a file, and the
 * test polls until it is gone (a killed child of a worker stays a zombie of
 * this process, which processRunning counts as ended).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime, type Outcome, type Runtime } from "../../src/runtime/index.ts";
import { processRunning } from "../support/processes.ts";
import { Sandbox } from "./support.ts";

let runtime: Runtime;
let box: Sandbox;
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

/** Pids the tests saw, killed at the end whatever happened (a failing test must not leave a sleep behind). */
const seen: number[] = [];
afterAll(() => {
  for (const pid of seen) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
});

async function waitUntil(predicate: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > 10_000) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The pid a child wrote to `name` in the workdir, once it is there. */
async function pidIn(name: string): Promise<number> {
  const file = join(box.workdir, name);
  await waitUntil(() => existsSync(file) && /^\d+\s*$/.test(readFileSync(file, "utf8")), `the pid in ${name}`);
  const pid = Number(readFileSync(file, "utf8").trim());
  seen.push(pid);
  return pid;
}

const invoke = (path: string, signal?: AbortSignal): Promise<Outcome> =>
  runtime.invoke({ modulePath: path, exportName: "execute", args: [{}], context: box.context(signal) });

// Each starts `sleep 30` that writes its pid to child.pid first; `cp` is node:child_process.
const STARTS: Record<string, string> = {
  spawn: `cp.spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore" });`,
  exec: `cp.exec("echo $$ > child.pid; exec sleep 30", { cwd: ctx.workdir });`,
  execFile: `cp.execFile("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir });`,
  fork: `require("node:fs").writeFileSync(require("node:path").join(ctx.workdir, "sleeper.js"), "require('node:fs').writeFileSync('child.pid', String(process.pid)); setTimeout(() => {}, 30000);");
         cp.fork("sleeper.js", [], { cwd: ctx.workdir, stdio: ["ignore", "ignore", "ignore", "ipc"] });`,
  "Bun's spawn": `Bun.spawn(["sh", "-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: ["ignore", "ignore", "ignore"] });`,
  "process.getBuiltinModule": `process.getBuiltinModule("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore" });`,
  "an ES module's import": `const esm = require("node:path").join(ctx.workdir, "starter.mjs");
         require("node:fs").writeFileSync(esm, 'import { spawn } from "node:child_process"; export function start(dir) { spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: dir, stdio: "ignore" }); }');
         require(esm).start(ctx.workdir);`,
};

describe("a process a tool starts without waiting for it", () => {
  for (const [how, start] of Object.entries(STARTS)) {
    test(`${how}: ended when the call is interrupted`, async () => {
      const path = box.tool("starter", `const cp = require("node:child_process"); ${start} ctx.sleep(60000); return "slept";`);
      const controller = new AbortController();
      const pending = invoke(path, controller.signal);
      const pid = await pidIn("child.pid");
      expect(processRunning(pid)).toBe(true);
      controller.abort();
      expect(await pending).toEqual({ kind: "interrupted" });
      await waitUntil(() => !processRunning(pid), "the child's end");
    });
  }

  test("ended when the call returns, with what it started in the background", async () => {
    const path = box.tool(
      "returns",
      `const cp = require("node:child_process");
       cp.spawn("sh", ["-c", "sleep 30 & echo $! > grandchild.pid; echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore" });
       while (!require("node:fs").existsSync(require("node:path").join(ctx.workdir, "child.pid"))) ctx.sleep(5);
       return "started";`,
    );
    expect(await invoke(path)).toMatchObject({ kind: "returned", value: "started" });
    const child = await pidIn("child.pid");
    const grandchild = await pidIn("grandchild.pid");
    await waitUntil(() => !processRunning(child) && !processRunning(grandchild), "the end of the child and its background process");
  });

  test("an interrupt while the worker runs ends it too (a tool that never returns to a ctx call)", async () => {
    const path = box.tool("spinner", `require("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore" }); while (true) {}`);
    const controller = new AbortController();
    const pending = invoke(path, controller.signal);
    const pid = await pidIn("child.pid");
    controller.abort();
    expect(await pending).toEqual({ kind: "interrupted" });
    await waitUntil(() => !processRunning(pid), "the child's end");
  });

  test("detached: true leaves on purpose and outlives the call, as setsid does for ctx.system.exec", async () => {
    const path = box.tool(
      "daemon",
      `require("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore", detached: true });
       while (!require("node:fs").existsSync(require("node:path").join(ctx.workdir, "child.pid"))) ctx.sleep(5);
       return "started";`,
    );
    expect(await invoke(path)).toMatchObject({ kind: "returned", value: "started" });
    const pid = await pidIn("child.pid");
    // The call is over and its worker ended: the daemon still runs.
    await runtime.settled();
    expect(processRunning(pid)).toBe(true);
    process.kill(pid, "SIGKILL");
  });

  test("the child runs as the leader of a process group of its own", async () => {
    const path = box.tool(
      "leader",
      `const c = require("node:child_process").spawn("sh", ["-c", "exec sleep 30"], { stdio: "ignore" });
       ctx.log(String(c.pid));
       return require("node:child_process").execSync("ps -o pgid= -p " + c.pid, { encoding: "utf8" }).trim() + " " + c.pid;`,
    );
    const outcome = await invoke(path);
    expect(outcome.kind).toBe("returned");
    const [group, pid] = String((outcome as { value: unknown }).value).split(" ");
    seen.push(Number(pid));
    expect(group).toBe(pid);
    await waitUntil(() => !processRunning(Number(pid)), "the child's end");
  });
});

describe("a module only looked at (discovery)", () => {
  test("what it starts while loading ends with the inspection", async () => {
    const path = box.module("loader", `require("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ${JSON.stringify(box.workdir)}, stdio: "ignore" }); while (!require("node:fs").existsSync(${JSON.stringify(join(box.workdir, "child.pid"))})) {} module.exports = {};`);
    expect((await runtime.inspect(path)).kind).toBe("loaded");
    const pid = await pidIn("child.pid");
    await waitUntil(() => !processRunning(pid), "the child's end");
  });

  test("modules that start processes while loading still share their lane's worker, and their processes end with it", async () => {
    const cold = createRuntime({ spareWorker: false });
    try {
      const paths = Array.from({ length: 6 }, (_, i) =>
        box.module(
          `starts${i}`,
          `const cp = require("node:child_process");
           cp.spawn("sh", ["-c", "echo $$ > child${i}.pid; exec sleep 30"], { cwd: ${JSON.stringify(box.workdir)}, stdio: "ignore" });
           while (!require("node:fs").existsSync(${JSON.stringify(box.workdir)} + "/child${i}.pid")) {}
           module.exports = { description: String(require("node:worker_threads").threadId) };`,
        ),
      );
      const outcomes = await cold.inspectAll(paths);
      const threads = new Set(outcomes.map((o) => (o.kind === "loaded" ? o.shape.members.description?.value : o.kind)));
      expect([...threads].every((t) => typeof t === "string" && /^\d+$/.test(t))).toBe(true);
      expect(threads.size).toBeLessThanOrEqual(2);
      for (let i = 0; i < paths.length; i++) {
        const pid = await pidIn(`child${i}.pid`);
        await waitUntil(() => !processRunning(pid), `the end of module ${i}'s child`);
      }
    } finally {
      await cold.close();
    }
  });
});
