/**
 * Issue 43: the `shell` tool's commands in a bubblewrap sandbox, driven
 * through the binary with the real bwrap. What a sandboxed command cannot
 * do (write outside the workspace, read a hidden path, reach 127.0.0.2 with
 * the network off, escape through a symlink or /proc/self/root), what it
 * keeps (output, exit status, timeout, interrupt), and the clear failure
 * when the sandbox cannot start. Skipped, saying why, where bwrap cannot
 * make a sandbox (no bwrap, or no user namespaces).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { processRunning } from "../support/processes.ts";
import { RpcDriver } from "../support/rpc-driver.ts";
import { jsonEvents, scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";

const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--proc", "/proc", "true"], {
  encoding: "utf8",
});
const BWRAP_WORKS = probe.status === 0;
if (!BWRAP_WORKS)
  console.warn(`skipping the sandbox tests that need bubblewrap: ${probe.error?.message ?? probe.stderr.trim()}`);
const withBwrap = BWRAP_WORKS ? test : test.skip;

let s: Scenario | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await s?.dispose();
  s = undefined;
  for (const clean of cleanups.splice(0)) clean();
});

/** A directory outside /tmp (the sandbox's /tmp is private), removed after the test. */
function outsideDir(): string {
  const dir = mkdtempSync("/var/tmp/rienda-sandbox-test-");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `command` through the shell tool of an agent with `frontmatter`; the result the model read. */
async function shellResult(
  command: string,
  options: { frontmatter?: string; config?: string; args?: string[]; timeoutMs?: number } = {},
) {
  s = await scenario({
    agentFrontmatter: `tools: [shell]\n${options.frontmatter ?? ""}`,
    ...(options.config ? { configExtra: options.config } : {}),
  });
  const args = { command, ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}) };
  s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: args }] }, { text: "done" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", ...(options.args ?? [])]);
  const second = s.server.requests[1];
  return { ...r, result: second ? toolResultsOf(second).join("\n") : "" };
}

describe("sandbox: workspace-write", () => {
  withBwrap("writes the workspace, not outside it; /tmp is private; the result says the sandbox refused", async () => {
    const outside = outsideDir();
    const r = await shellResult(
      `echo inside > made.txt && cat made.txt; echo out > ${outside}/escaped; echo t > /tmp/rienda-private-probe && cat /tmp/rienda-private-probe`,
      {
        frontmatter: "sandbox: workspace-write",
      },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(s!.inst.workspace, "made.txt"), "utf8")).toBe("inside\n");
    expect(existsSync(join(outside, "escaped"))).toBe(false);
    expect(existsSync("/tmp/rienda-private-probe")).toBe(false);
    expect(r.result).toContain("Read-only file system");
    expect(r.result).toMatch(/^t$/m);
    expect(r.result).toContain('sandbox: this command ran in the "workspace-write" sandbox');
  });

  withBwrap("the workspace's .git stays read-only unless git_write allows it", async () => {
    const command = "echo x > .git/probe && echo written";
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: workspace-write" });
    mkdirSync(join(s.inst.workspace, ".git"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command } }] }, { text: "done" });
    await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(toolResultsOf(s.server.requests[1]!).join("")).toContain("Read-only file system");
    expect(existsSync(join(s.inst.workspace, ".git", "probe"))).toBe(false);
    await s.dispose();
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: { mode: workspace-write, git_write: true }" });
    mkdirSync(join(s.inst.workspace, ".git"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command } }] }, { text: "done" });
    await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(toolResultsOf(s.server.requests[1]!).join("")).toContain("written");
    expect(readFileSync(join(s.inst.workspace, ".git", "probe"), "utf8")).toBe("x\n");
  });

  withBwrap("no capability is kept, even when Rienda runs as root: / cannot be remounted writable", async () => {
    const outside = outsideDir();
    const r = await shellResult(
      `mount -o remount,rw / 2>/dev/null; echo x > ${outside}/after-remount; grep CapEff /proc/self/status`,
      { frontmatter: "sandbox: workspace-write" },
    );
    expect(r.result).toContain("CapEff:\t0000000000000000");
    expect(existsSync(join(outside, "after-remount"))).toBe(false);
  });

  withBwrap("cannot escape through a symlink in the workspace or /proc/self/root", async () => {
    const outside = outsideDir();
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: workspace-write" });
    symlinkSync(outside, join(s.inst.workspace, "link"));
    const command = `echo a > link/via-link; echo b > /proc/self/root${outside}/via-proc; echo c > /proc/1/root${outside}/via-pid1; ls link`;
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    const result = toolResultsOf(s.server.requests[1]!).join("\n");
    expect(result.match(/Read-only file system/g)?.length).toBe(3);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe("sandbox: read-only and hidden paths", () => {
  withBwrap("read-only reads the workspace and writes nothing but its private /tmp", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: read-only" });
    writeFileSync(join(s.inst.workspace, "notes.txt"), "readable\n");
    s.server.script(
      {
        toolCalls: [
          {
            id: "c1",
            name: "shell",
            arguments: { command: "cat notes.txt; echo x > new.txt; echo y > /tmp/scratch && cat /tmp/scratch" },
          },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    const result = toolResultsOf(s.server.requests[1]!).join("\n");
    expect(result).toContain("readable");
    expect(result).toContain("Read-only file system");
    expect(result).toMatch(/^y$/m);
    expect(existsSync(join(s.inst.workspace, "new.txt"))).toBe(false);
  });

  withBwrap("hide: a workspace file and an absolute directory cannot be read", async () => {
    const outside = outsideDir();
    writeFileSync(join(outside, "key"), "SECRET-OUTSIDE");
    s = await scenario({
      agentFrontmatter: "tools: [shell]",
      configExtra: `sandbox:\n  mode: workspace-write\n  hide: [.env, "${outside}"]`,
    });
    writeFileSync(join(s.inst.workspace, ".env"), "SECRET-ENV");
    writeFileSync(join(s.inst.workspace, "plain.txt"), "visible");
    s.server.script(
      {
        toolCalls: [
          {
            id: "c1",
            name: "shell",
            arguments: { command: `cat .env plain.txt ${outside}/key; ls -A ${outside}; echo end` },
          },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    const result = toolResultsOf(s.server.requests[1]!).join("\n");
    expect(result).toContain("visible");
    expect(result).toContain("end");
    expect(result).not.toContain("SECRET");
    // Outside the sandbox nothing changed.
    expect(readFileSync(join(s.inst.workspace, ".env"), "utf8")).toBe("SECRET-ENV");
  });
});

describe("sandbox: network", () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  /** A TCP server on 127.0.0.2 that answers every connection with a line; its port. */
  async function listener(): Promise<number> {
    server = createServer((socket) => socket.end("HELLO-FROM-HOST\n"));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.2", resolve));
    return (server.address() as { port: number }).port;
  }

  withBwrap("off by default: 127.0.0.2 cannot be reached; network: true reaches it", async () => {
    const port = await listener();
    const command = `curl -sS --max-time 5 telnet://127.0.0.2:${port} </dev/null; echo curl=$?`;
    let r = await shellResult(command, { frontmatter: "sandbox: workspace-write" });
    expect(r.result).not.toContain("HELLO-FROM-HOST");
    expect(r.result).toContain("curl=7");
    expect(r.result).toContain("it has no network");
    await s!.dispose();
    s = undefined;
    r = await shellResult(command, { frontmatter: "sandbox: { mode: workspace-write, network: true }" });
    expect(r.result).toContain("HELLO-FROM-HOST");
  });
});

describe("sandbox: the shell tool stays as it is", () => {
  withBwrap("output, stderr and the exit status come back as unsandboxed", async () => {
    const r = await shellResult("echo out; echo err >&2; exit 3", { frontmatter: "sandbox: workspace-write" });
    expect(r.result).toBe("out\nstderr:\nerr\ncommand exited with code 3");
  });

  withBwrap("the timeout ends the sandboxed command", async () => {
    const r = await shellResult("echo started; sleep 30", { frontmatter: "sandbox: workspace-write", timeoutMs: 300 });
    expect(r.result).toContain("started");
    expect(r.result).toContain("command timed out after");
  });

  withBwrap("an interrupt kills the sandboxed command and everything it started", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: workspace-write" });
    const marker = `${process.pid}${Date.now() % 100000}`;
    s.server.script({
      toolCalls: [{ id: "c1", name: "shell", arguments: { command: `sleep 1${marker} & sleep 2${marker}` } }],
    });
    const run = s.inst.start(["run", "-a", "coder", "-p", "go"]);
    const sleepers = () => pidsWithArgument(marker);
    await waitFor(() => sleepers().length === 2, 10_000, "both sleeps to start");
    const pids = sleepers();
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    await waitFor(() => pids.every((pid) => !processRunning(pid)), 5_000, "the sandboxed processes to end");
  });

  withBwrap("the streamed output is the command's", async () => {
    const r = await shellResult("echo live-line", { frontmatter: "sandbox: workspace-write", args: ["--json"] });
    const outputs = jsonEvents(r.stdout).filter((e) => e.type === "tool_output");
    expect(outputs.map((e) => e.text).join("")).toBe("live-line\n");
  });
});

describe("sandbox: settings", () => {
  withBwrap("off behaves as today; --sandbox wins over the agent, the agent over config.yaml", async () => {
    const outside = outsideDir();
    const command = `echo x > ${outside}/written && echo wrote`;
    let r = await shellResult(command, { frontmatter: "sandbox: workspace-write", args: ["--sandbox", "off"] });
    expect(r.result).toBe("wrote");
    await s!.dispose();
    s = undefined;
    rmSync(join(outside, "written"));
    r = await shellResult(command, { frontmatter: "sandbox: off", config: "sandbox: workspace-write" });
    expect(r.result).toBe("wrote");
    await s!.dispose();
    s = undefined;
    rmSync(join(outside, "written"));
    r = await shellResult(command, { config: "sandbox: workspace-write" });
    expect(r.result).toContain("Read-only file system");
    expect(existsSync(join(outside, "written"))).toBe(false);
  });

  test("a bad setting is refused before any request, naming the key", async () => {
    const r = await shellResult("true", { frontmatter: "sandbox: { mode: sealed, network: yes-please, extra: 1 }" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("sandbox.mode: must be one of off, read-only, workspace-write");
    expect(r.stderr).toContain("sandbox.network: must be true or false");
    expect(r.stderr).toContain("sandbox.extra: unknown key");
    expect(s!.server.requests.length).toBe(0);
    const flag = await s!.inst.run(["run", "-a", "coder", "-p", "go", "--sandbox", "sealed"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("--sandbox: must be one of off, read-only, workspace-write");
  });

  test("without bubblewrap on the PATH, a run that asked for the sandbox fails before any request, saying how to fix it", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const bin = join(s.inst.root, "bin");
    mkdirSync(bin);
    symlinkSync("/bin/sh", join(bin, "sh"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo ran" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--sandbox", "workspace-write"], {
      env: { PATH: bin },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'the sandbox ("workspace-write", set by --sandbox) needs bubblewrap, and no bwrap program is on the PATH',
    );
    expect(r.stderr).toContain("apt-get install bubblewrap");
    expect(s.server.requests.length).toBe(0);
  });

  test("a bubblewrap that cannot make a sandbox here fails the run with what it said", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nsandbox: read-only" });
    const bin = join(s.inst.root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot start");
    expect(r.stderr).toContain("bwrap: setting up uid map: Permission denied");
    expect(r.stderr).toContain("user namespaces");
    expect(r.stderr).toContain("coder.md");
    expect(s.server.requests.length).toBe(0);
  });
});

/** Pids of processes with `marker` in their command line (the sandboxed sleeps, seen from outside). */
function pidsWithArgument(marker: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      return cmdline[0] === "sleep" && cmdline.some((arg) => arg.endsWith(marker)) && processRunning(Number(entry))
        ? [Number(entry)]
        : [];
    } catch {
      return [];
    }
  });
}

describe("sandbox: rpc", () => {
  withBwrap("rienda rpc --sandbox runs the conversation's commands in the sandbox", async () => {
    const outside = outsideDir();
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: `echo x > ${outside}/f` } }] },
      { text: "done" },
    );
    const rpc = new RpcDriver(s.inst, ["-a", "coder", "--sandbox", "read-only"]);
    try {
      await rpc.waitFor((l) => l.type === "ready");
      rpc.send({ id: "p1", type: "prompt", text: "go" });
      await rpc.runEnd("p1");
      expect(String(rpc.eventsOf("p1").find((e) => e.type === "tool_result")?.text)).toContain("Read-only file system");
      expect(existsSync(join(outside, "f"))).toBe(false);
    } finally {
      if (rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
    }
  });
});
