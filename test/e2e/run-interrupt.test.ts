import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { processRunning } from "../support/processes.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("interrupting rienda run", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`${signal} while the model streams exits 130 with the interrupt message`, async () => {
      s = await scenario();
      s.server.script({ text: "a long answer that never ends", hang: true });
      const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
      await s.server.waitForRequests(1);
      run.kill(signal);
      const r = await run.done;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain("rienda: the run was interrupted");
      expect(r.stdout).toBe("");
      await s.server.waitForClosed(1);
      expect(s.server.requests[0]!.aborted).toBe(true);
    });
  }

  test("a tool stuck in while (true) {} is stopped", async () => {
    s = await scenario({ agentFrontmatter: "tools: [spin]" });
    s.inst.tool(
      "spin",
      `module.exports = { description: "spins", parameters: { type: "object" }, execute(ctx) { ctx.file.write("spinning", "1"); while (true) {} } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "spin", arguments: {} }] });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(() => existsSync(join(s!.inst.workspace, "spinning")), 10_000, "the tool to start");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the run was interrupted");
  });

  test("the process group of a running shell command is killed", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({
      toolCalls: [{ id: "c1", name: "shell", arguments: { command: "sleep 60 & echo $! > child.pid; wait" } }],
    });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    const pidFile = join(s.inst.workspace, "child.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the command to start",
    );
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(processRunning(pid)).toBe(true);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    await waitFor(() => !processRunning(pid), 5_000, "the child to die");
  });

  test("a tool blocked in ctx.sleep is cut short", async () => {
    s = await scenario({ agentFrontmatter: "tools: [nap]" });
    s.inst.tool(
      "nap",
      `module.exports = { description: "naps", parameters: { type: "object" }, execute(ctx) { ctx.file.write("napping", "1"); ctx.sleep(60000); return "woke"; } };`,
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "nap", arguments: {} }] });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x", "--json"]);
    await waitFor(() => existsSync(join(s!.inst.workspace, "napping")), 10_000, "the tool to start");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "run_end", reason: "interrupted" });
  });
});
