import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Instance, waitFor } from "../support/instance.ts";

let inst: Instance;
beforeEach(() => (inst = new Instance()));
afterEach(() => inst.dispose());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("interrupting rienda tool run", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`${signal} ends a tool stuck in while (true) {} with exit 130`, async () => {
      inst.tool(
        "spin",
        `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { ctx.log("spinning"); while (true) {} } };`,
      );
      const child = inst.start(["tool", "run", "spin"], { killAfterMs: 20_000 });
      await waitFor(() => child.stderr().includes("spinning"), 10_000, "the tool to start");
      child.kill(signal);
      const r = await child.done;
      expect(r.code).toBe(130);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("rienda: the tool run was interrupted");
    });
  }

  test("SIGINT while a tool waits in ctx.system.exec kills the command's whole process group", async () => {
    inst.tool(
      "waiter",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return ctx.system.exec("sleep 60 & echo $! > bg.pid; sleep 60").stdout; } };`,
    );
    const child = inst.start(["tool", "run", "waiter"], { killAfterMs: 20_000 });
    const pidFile = join(inst.workspace, "bg.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the command to start",
    );
    const background = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(background)).toBe(true);
    child.kill("SIGINT");
    const r = await child.done;
    expect(r.code).toBe(130);
    await waitFor(() => !alive(background), 5_000, "the background child to die");
  });

  test("SIGINT during the built-in shell kills its process group", async () => {
    const child = inst.start(
      ["tool", "run", "shell", "--args", JSON.stringify({ command: "sleep 60 & echo $! > bg.pid; wait" })],
      { killAfterMs: 20_000 },
    );
    const pidFile = join(inst.workspace, "bg.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the command to start",
    );
    const background = Number(readFileSync(pidFile, "utf8").trim());
    child.kill("SIGINT");
    expect((await child.done).code).toBe(130);
    await waitFor(() => !alive(background), 5_000, "the background child to die");
  });
});
