/**
 * Processes a tool starts itself with node:child_process (or Bun's spawn)
 * end with the call, as those of ctx.system.exec do: when it is interrupted,
 * when it returns, and when a module only looked at started them. Real
 * workers and real processes; each child writes its pid to a file, and the
 * test polls until it is gone (a killed child of a worker stays a zombie of
 * this process, which processRunning counts as ended).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as childProcess from "node:child_process";
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
      const path = box.tool(
        "starter",
        `const cp = require("node:child_process"); ${start} ctx.sleep(60000); return "slept";`,
      );
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
    await waitUntil(
      () => !processRunning(child) && !processRunning(grandchild),
      "the end of the child and its background process",
    );
  });

  test("once ended it is collected, not left a zombie of this process (a long chat or mcp serve would pile them up)", async () => {
    const path = box.tool(
      "pids",
      `const cp = require("node:child_process");
       return [cp.spawn("sleep", ["30"], { stdio: "ignore" }).pid, cp.spawn("true", [], { stdio: "ignore" }).pid].join(" ");`,
    );
    const outcome = await invoke(path);
    expect(outcome.kind).toBe("returned");
    const pids = String((outcome as { value: unknown }).value)
      .split(" ")
      .map(Number);
    seen.push(...pids);
    // Gone from /proc altogether: a zombie still has its entry there.
    await waitUntil(() => pids.every((pid) => !existsSync(`/proc/${pid}`)), "the collection of both children");
  });

  test("an interrupt while the worker runs ends it too (a tool that never returns to a ctx call)", async () => {
    const path = box.tool(
      "spinner",
      `require("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir, stdio: "ignore" }); while (true) {}`,
    );
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

describe("a synchronous child_process call", () => {
  for (const [how, call] of Object.entries({
    execSync: `cp.execSync("echo $$ > child.pid; exec sleep 30", { cwd: ctx.workdir });`,
    spawnSync: `cp.spawnSync("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir });`,
    execFileSync: `cp.execFileSync("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ctx.workdir });`,
  })) {
    test(`${how}: the interrupt ends the call and the child`, async () => {
      const path = box.tool("blocked", `const cp = require("node:child_process"); ${call} return "finished";`);
      const controller = new AbortController();
      const pending = invoke(path, controller.signal);
      const pid = await pidIn("child.pid");
      controller.abort();
      expect(await pending).toEqual({ kind: "interrupted" });
      await waitUntil(() => !processRunning(pid), "the child's end");
    });
  }

  test("what a command leaves in the background ends when it exits, as for ctx.system.exec", async () => {
    const path = box.tool(
      "background",
      `return require("node:child_process").execSync("sleep 30 >/dev/null 2>&1 & echo $!", { encoding: "utf8" }).trim();`,
    );
    const outcome = await invoke(path);
    expect(outcome.kind).toBe("returned");
    const pid = Number((outcome as { value: unknown }).value);
    seen.push(pid);
    await waitUntil(() => !processRunning(pid), "the background process's end");
  });

  // Each runs in a tool and in this process (Bun's own spawnSync): the results must be the same.
  const SAME_AS_NATIVE: Record<string, string> = {
    "output and status": `const r = cp.spawnSync("sh", ["-c", "echo out; echo err >&2; exit 3"], { encoding: "utf8" }); return [r.stdout, r.stderr, r.status, r.signal, r.error, typeof r.pid];`,
    buffers: `const r = cp.spawnSync("printf", ["a\\\\0b"]); return [Buffer.isBuffer(r.stdout), [...r.stdout], [...r.stderr], r.output.length];`,
    "execSync's output": `return cp.execSync("echo hi; echo there", { encoding: "utf8" });`,
    "a failing execSync": `try { cp.execSync("echo partial; echo bad >&2; exit 4", { stdio: "pipe" }); } catch (e) { return [e.message, e.status, e.signal, String(e.stdout), String(e.stderr)]; }`,
    input: `return cp.execFileSync("cat", { input: "fed in", encoding: "utf8" });`,
    "env and cwd": `return cp.execSync("echo $RIENDA_TEST_VALUE; pwd", { env: { ...process.env, RIENDA_TEST_VALUE: "v1" }, cwd: "/", encoding: "utf8" });`,
    "the worker's environment": `process.env.RIENDA_TEST_SET_HERE = "set here"; return cp.execSync("echo $RIENDA_TEST_SET_HERE", { encoding: "utf8" });`,
    "a command that does not exist": `const r = cp.spawnSync("rienda-no-such-command-x", []); return [r.error && r.error.message, r.error && r.error.code, r.error && r.error.errno, r.error && r.error.syscall, r.error && r.error.path, r.status];`,
    "execFileSync of a command that does not exist": `try { cp.execFileSync("rienda-no-such-command-x"); } catch (e) { return [e.message, e.code, e.errno, e.syscall, e.path]; }`,
    "a folder that does not exist": `const r = cp.spawnSync("true", [], { cwd: "/rienda-no-such-folder" }); return [r.error && r.error.message, r.error && r.error.code, r.status];`,
    "a timeout": `const r = cp.spawnSync("sleep", ["5"], { timeout: 100 }); return [r.status, r.signal, r.error && r.error.code, r.error && r.error.message];`,
    "a timeout with another signal": `const r = cp.spawnSync("sleep", ["5"], { timeout: 100, killSignal: "SIGKILL" }); return [r.status, r.signal, r.error && r.error.code];`,
    // How the child ends varies from run to run with Bun itself (SIGTERM; SIGPIPE or status 1 once the pipe is closed): left out.
    maxBuffer: `const r = cp.spawnSync("yes", [], { maxBuffer: 1000 }); return [r.error && r.error.code, r.stdout.length > 1000];`,
    "execSync over maxBuffer": `try { cp.execSync("exec yes", { maxBuffer: 10 }); return "no error"; } catch (e) { return [e.code, e.message]; }`,
    "ignored streams": `const r = cp.spawnSync("sh", ["-c", "echo out; echo err >&2"], { stdio: "ignore" }); return [r.stdout, r.stderr, r.status];`,
    "Bun's spawnSync": `const r = Bun.spawnSync(["sh", "-c", "echo bun; exit 2"]); return [r.stdout.toString(), r.exitCode, r.success, r.signalCode];`,
  };
  for (const [name, body] of Object.entries(SAME_AS_NATIVE)) {
    test(`gives what it gives outside Rienda: ${name}`, async () => {
      const native = JSON.parse(
        JSON.stringify(new Function("cp", "ctx", body)(childProcess, { workdir: box.workdir }) ?? null),
      );
      delete process.env.RIENDA_TEST_SET_HERE;
      const outcome = await invoke(box.tool("same", `const cp = require("node:child_process"); ${body}`));
      expect(outcome.kind).toBe("returned");
      // Both in their JSON form (undefined in a list becomes null in both).
      expect(JSON.parse(JSON.stringify((outcome as { value: unknown }).value ?? null))).toEqual(native);
    });
  }

  test("runs by the host: the child is the leader of a process group of its own", async () => {
    const outcome = await invoke(
      box.tool(
        "group",
        `return require("node:child_process").execSync("ps -o pid=,pgid= -p $$", { encoding: "utf8" }).trim().split(/\\s+/);`,
      ),
    );
    expect(outcome.kind).toBe("returned");
    const [pid, group] = (outcome as { value: string[] }).value;
    expect(group).toBe(pid);
  });
});

describe("a module only looked at (discovery)", () => {
  test("what it starts while loading ends with the inspection", async () => {
    const path = box.module(
      "loader",
      `require("node:child_process").spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 30"], { cwd: ${JSON.stringify(box.workdir)}, stdio: "ignore" }); while (!require("node:fs").existsSync(${JSON.stringify(join(box.workdir, "child.pid"))})) {} module.exports = {};`,
    );
    expect((await runtime.inspect(path)).kind).toBe("loaded");
    const pid = await pidIn("child.pid");
    await waitUntil(() => !processRunning(pid), "the child's end");
  });

  test("modules that start processes while loading still share their lane's worker, and their processes end with it", async () => {
    const cold = createRuntime();
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
