/**
 * A process a tool starts itself with node:child_process does not outlive
 * the call, nor Rienda: after Ctrl-C (SIGINT) or a CI timeout's SIGTERM of
 * `rienda run` or `rienda tool run`, and after the call returned. The
 * child writes its pid to a file in the workspace.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor, type Instance } from "../support/instance.ts";
import { processRunning } from "../support/processes.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
/** Every pid a test saw, killed at the end whatever happened: a failing test must not leave a sleep behind. */
const seen: number[] = [];
afterEach(async () => {
  for (const pid of seen.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  await s?.dispose();
  s = undefined;
});

/** A tool whose execute starts a child (`start`, with `cp` = node:child_process), then does `then`. */
function starter(inst: Instance, start: string, then: string): void {
  inst.tool(
    "starter",
    `const cp = require("node:child_process");
     module.exports = { description: "starts a child", parameters: { type: "object" }, execute(ctx) { ${start} ${then} } };`,
  );
}

const START_ASYNC = `cp.spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 60"], { cwd: ctx.workdir, stdio: "ignore" });`;
const START_SYNC = `cp.execSync("echo $$ > child.pid; exec sleep 60", { cwd: ctx.workdir });`;
const WAIT_FOR_PID = `while (!ctx.file.exists("child.pid") || ctx.file.read("child.pid").trim() === "") ctx.sleep(5);`;

async function childPid(inst: Instance): Promise<number> {
  const file = join(inst.workspace, "child.pid");
  await waitFor(() => existsSync(file) && /^\d+\s*$/.test(readFileSync(file, "utf8")), 10_000, "the child to start");
  const pid = Number(readFileSync(file, "utf8").trim());
  seen.push(pid);
  return pid;
}

describe("a process a tool starts with node:child_process", () => {
  for (const [signal, how, start] of [
    ["SIGINT", "spawn", START_ASYNC],
    ["SIGTERM", "spawn", START_ASYNC],
    ["SIGINT", "execSync", START_SYNC],
    ["SIGTERM", "execSync", START_SYNC],
  ] as const) {
    test(`${how}: ${signal} to rienda run ends it`, async () => {
      s = await scenario({ agentFrontmatter: "tools: [starter]" });
      starter(s.inst, start, "ctx.sleep(60000); return 'slept';");
      s.server.script({ toolCalls: [{ id: "c1", name: "starter", arguments: {} }] });
      const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
      const pid = await childPid(s.inst);
      expect(processRunning(pid)).toBe(true);
      run.kill(signal);
      const r = await run.done;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain("rienda: the run was interrupted");
      await waitFor(() => !processRunning(pid), 5_000, "the child to end");
    });
  }

  test("spawn: SIGTERM to rienda tool run ends it", async () => {
    s = await scenario();
    starter(s.inst, START_ASYNC, "ctx.sleep(60000); return 'slept';");
    const run = s.inst.start(["tool", "run", "starter"], { killAfterMs: 30_000 });
    const pid = await childPid(s.inst);
    run.kill("SIGTERM");
    expect((await run.done).code).toBe(130);
    await waitFor(() => !processRunning(pid), 5_000, "the child to end");
  });

  test("spawn: ended when the call returns, while the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [starter]" });
    starter(s.inst, START_ASYNC, `${WAIT_FOR_PID} return "started";`);
    s.server.script({ toolCalls: [{ id: "c1", name: "starter", arguments: {} }] }, { hang: true, text: "never ends" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    // The second request carries the tool's result: the call is over, Rienda still runs.
    await s.server.waitForRequests(2);
    const pid = await childPid(s.inst);
    await waitFor(() => !processRunning(pid), 5_000, "the child to end");
    run.kill("SIGINT");
    expect((await run.done).code).toBe(130);
  });

  test("spawn with detached: true leaves on purpose and outlives rienda tool run", async () => {
    s = await scenario();
    starter(
      s.inst,
      `cp.spawn("sh", ["-c", "echo $$ > child.pid; exec sleep 60"], { cwd: ctx.workdir, stdio: "ignore", detached: true });`,
      `${WAIT_FOR_PID} return "started";`,
    );
    const r = await s.inst.run(["tool", "run", "starter"], { killAfterMs: 30_000 });
    expect(r.stdout).toBe("started\n");
    expect(r.code).toBe(0);
    expect(processRunning(await childPid(s.inst))).toBe(true);
  });
});
