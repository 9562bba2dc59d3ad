/**
 * Every interrupt is honoured at every stage: reading the prompt from stdin,
 * setup (a module that hangs while it loads), the afterRun hooks of a
 * finished run, a question on the terminal, and `tool run` on SIGHUP.
 * Each run has a watchdog (SIGKILL) far below the time the stage would take
 * on its own, so an ignored signal fails the test instead of hanging it.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, waitFor, type RunResult } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { processRunning } from "../support/processes.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

describe("signals at every stage of rienda run", () => {
  test("one SIGINT ends -p - while stdin is still open", async () => {
    s = await scenario();
    // stdin stays open (nothing is ever written or closed): the run waits for the prompt.
    const child = spawn(BINARY, ["run", "-a", "coder", "-p", "-"], {
      cwd: s.inst.workspace,
      env: s.inst.env(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // Give the binary time to start reading; the signal must work whenever it comes.
    await new Promise((r) => setTimeout(r, 500));
    child.kill("SIGINT");
    const code = await done;
    clearTimeout(watchdog);
    expect(code).toBe(130);
    expect(stderr).toContain("rienda: the run was interrupted");
    expect(stdout).toBe("");
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("SIGTERM while a tool module hangs at load ends the setup at once, nothing written", async () => {
    s = await scenario({ agentFrontmatter: "tools: [stuck]" });
    const marker = join(s.inst.root, "loading");
    // The module never finishes loading (the load timeout is 10 s; the watchdog 6 s).
    s.inst.tool("stuck", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "1"); while (true) {}`);
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 6_000 });
    await waitFor(() => existsSync(marker), 10_000, "the module to start loading");
    run.kill("SIGTERM");
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the run was interrupted");
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("SIGTERM during the afterRun hook of a finished run ends it, exit 130", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [slow-end]" });
    // The hook would never end on its own.
    s.inst.hook(
      "slow-end",
      `module.exports = { afterRun(ctx) { ctx.file.write("after-run", "1"); while (true) {} } };`,
    );
    s.server.script({ text: "the answer" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x", "--json"], { killAfterMs: 10_000 });
    await waitFor(() => existsSync(join(s!.inst.workspace, "after-run")), 10_000, "the afterRun hook to start");
    run.kill("SIGTERM");
    const r: RunResult = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string; reason?: string });
    expect(events.find((e) => e.type === "message_end")?.text).toBe("the answer");
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });
  });
});

describe("rienda tool run", () => {
  test("SIGHUP ends the tool and its child processes, exit 130", async () => {
    s = await scenario();
    const child = s.inst.start(
      ["tool", "run", "shell", "--args", JSON.stringify({ command: "sleep 60 & echo $! > bg.pid; wait" })],
      { killAfterMs: 20_000 },
    );
    const pidFile = join(s.inst.workspace, "bg.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the command to start",
    );
    const background = Number(readFileSync(pidFile, "utf8").trim());
    expect(processRunning(background)).toBe(true);
    child.kill("SIGHUP");
    const r = await child.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the tool run was interrupted");
    await waitFor(() => !processRunning(background), 5_000, "the background child to die");
  });
});

describe("Ctrl-C at a question on the terminal", () => {
  const PUBLISH = `module.exports = {
  description: "Publishes.",
  parameters: { type: "object" },
  execute(ctx) { return ctx.confirm({ title: "Publish now?", body: "" }) ? "published" : "cancelled by the user"; },
};
`;

  test("rienda run: Ctrl-C at ctx.confirm interrupts the run (exit 130), the model is not asked again", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ id: "c1", name: "publish", arguments: {} }] }, { text: "should not be asked" });
    term = Terminal.start(s.inst, { args: ["run", "-a", "coder", "-p", "go"] });
    await term.waitFor("Publish now?");
    term.keys("C-c");
    expect(await term.exitCode()).toBe(130);
    expect(term.history()).toContain("rienda: the run was interrupted");
    expect(s.server.requests).toHaveLength(1);
  });

  test("rienda tool run: Ctrl-C at ctx.confirm interrupts it (exit 130)", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario();
    s.inst.tool("publish", PUBLISH);
    term = Terminal.start(s.inst, { args: ["tool", "run", "publish"] });
    await term.waitFor("Publish now?");
    term.keys("C-c");
    expect(await term.exitCode()).toBe(130);
    expect(term.history()).toContain("rienda: the tool run was interrupted");
    expect(term.history()).not.toContain("cancelled by the user");
  });
});
