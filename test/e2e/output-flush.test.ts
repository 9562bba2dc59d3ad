/**
 * Output that arrives whole: a large answer piped to a reader that sleeps
 * before reading reaches it entirely, plain and `--json`, from `rienda run`
 * and `rienda tool run`; a reader that goes away ends the run at once; a
 * stdout closed before the start (`>&-`) is refused before any work, a
 * closed stderr changes nothing. The pipes and redirections are real
 * shell ones (`bash -c 'rienda ... | (sleep 1; cat)'`, `sh -c 'rienda ... >&-'`).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type Instance } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

setDefaultTimeout(120_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A 3 MB answer of numbered lines, so a lost or reordered piece shows. */
function bigText(bytes = 3 * 1024 * 1024): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `line ${i} ${"x".repeat(90)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

interface PipeResult {
  /** Exit status of rienda (the left side of the pipe). */
  code: number;
  /** What the reader received. */
  received: string;
  stderr: string;
}

/** Runs `rienda ARGS | READER` in bash; the reader writes what it got to a file. */
function pipeTo(inst: Instance, args: string[], reader: string): Promise<PipeResult> {
  const out = join(inst.root, `received-${Math.random().toString(36).slice(2)}`);
  const status = `${out}.status`;
  const quoted = [BINARY, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const script = `${quoted} 2>${out}.err | ${reader} > ${out}; echo "\${PIPESTATUS[0]}" > ${status}`;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd: inst.workspace, env: inst.env(), stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () =>
      resolve({
        code: Number(readFileSync(status, "utf8").trim()),
        received: existsSync(out) ? readFileSync(out, "utf8") : "",
        stderr: existsSync(`${out}.err`) ? readFileSync(`${out}.err`, "utf8") : "",
      }),
    );
  });
}

const SLOW_READER = "(sleep 1; cat)";

describe("a slow reader gets the whole output", () => {
  test("plain: a 3 MB answer arrives whole, run after run", async () => {
    s = await scenario();
    const text = bigText();
    for (let i = 0; i < 3; i++) {
      s.server.script({ text });
      const r = await pipeTo(s.inst, ["run", "-a", "coder", "-p", "x"], SLOW_READER);
      expect(r.code).toBe(0);
      expect(r.received.length).toBe(text.length + 1);
      expect(r.received).toBe(`${text}\n`);
    }
  });

  test("--json: every event arrives, the last is run_end", async () => {
    s = await scenario();
    const text = bigText();
    for (let i = 0; i < 3; i++) {
      s.server.script({ text });
      const r = await pipeTo(s.inst, ["run", "-a", "coder", "-p", "x", "--json"], SLOW_READER);
      expect(r.code).toBe(0);
      expect(r.received.endsWith("\n")).toBe(true);
      const events = r.received
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; text?: string });
      expect(events[0]!.type).toBe("run_start");
      expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
      expect(events.find((e) => e.type === "message_end")!.text).toBe(text);
      const streamed = events
        .filter((e) => e.type === "text_delta")
        .map((e) => e.text)
        .join("");
      expect(streamed).toBe(text);
    }
  });

  test("tool run: a result as large as the cap arrives whole", async () => {
    s = await scenario();
    // Just under the 256 KiB result cap: the whole text is the result.
    const text = bigText(250 * 1024);
    s.inst.tool(
      "big",
      `module.exports = { description: "big", parameters: { type: "object" }, execute() { return ${JSON.stringify(text)}; } };`,
    );
    for (let i = 0; i < 2; i++) {
      const r = await pipeTo(s.inst, ["tool", "run", "big"], SLOW_READER);
      expect(r.code).toBe(0);
      expect(r.received).toBe(`${text}\n`);
    }
  });
});

describe("a reader that goes away", () => {
  test("--json | head -1: the run stops at once, exit 141, no stack trace, session continuable", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    // Slow events: `head` has long exited when the next one is written.
    s.server.script({
      text: "working on it",
      toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch tool-ran" } }],
      chunkDelayMs: 300,
    });
    const r = await pipeTo(s.inst, ["run", "-a", "coder", "-p", "x", "--json"], "head -1");
    expect(JSON.parse(r.received)).toMatchObject({ type: "run_start" });
    expect(r.code).toBe(141);
    expect(r.stderr).toContain("rienda: stdout was closed before everything was written (its reader went away)");
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // No tool ran and the model was not asked again.
    expect(existsSync(join(s.inst.workspace, "tool-ran"))).toBe(false);
    expect(s.server.requests).toHaveLength(1);
    // The session stays consistent: it continues.
    const id = (JSON.parse(r.received) as { sessionId: string }).sessionId;
    s.server.script({ text: "continued" });
    const next = await s.inst.run(["run", "-s", id, "-p", "again"]);
    expect(next.stdout).toBe("continued\n");
    expect(next.code).toBe(0);
  });

  test("plain | head -c 1: exit 141 once the answer cannot be written", async () => {
    s = await scenario();
    s.server.script({ text: bigText() });
    const r = await pipeTo(s.inst, ["run", "-a", "coder", "-p", "x"], "head -c 1");
    expect(r.received).toBe("l");
    expect(r.code).toBe(141);
    expect(r.stderr).toContain("rienda: stdout was closed before everything was written (its reader went away)");
    expect(r.stderr).not.toContain("EPIPE");
  });
});

describe("a reader of stderr that goes away", () => {
  test("does not stop the run: the answer arrives whole on stdout, exit 0", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    // The command's stderr lines outlast the 10 bytes the reader takes before it leaves.
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "for i in $(seq 1 5000); do echo noise $i >&2; done" } }] },
      { text: "the whole answer" },
    );
    const inst = s.inst;
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn("bash", ["-c", `'${BINARY}' run -a coder -p x 2> >(head -c 10 >/dev/null); echo "exit=$?"`], {
        cwd: inst.workspace,
        env: inst.env(),
        stdio: ["ignore", "pipe", "ignore"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.on("error", reject);
      child.on("close", () => resolve(out));
    });
    expect(stdout).toBe("the whole answer\nexit=0\n");
    expect(s.server.requests).toHaveLength(2);
  });
});

describe("a reader that never reads", () => {
  test("SIGTERM while the last output waits for the reader ends the run at once, exit 130", async () => {
    s = await scenario();
    s.server.script({ text: bigText() });
    // stdout is a pipe nobody reads: the answer stays queued until the signal.
    const child = spawn(BINARY, ["run", "-a", "coder", "-p", "x"], {
      cwd: s.inst.workspace,
      env: s.inst.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pause();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    let exited = false;
    void done.then(() => (exited = true));
    await s.server.waitForClosed(1);
    // Still running: the answer cannot leave.
    await new Promise((r) => setTimeout(r, 500));
    expect(exited).toBe(false);
    child.kill("SIGTERM");
    child.stdout.resume();
    const r = await done;
    clearTimeout(watchdog);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(stderr).toContain("session: ");
  });
});

interface ShellResult {
  /** Exit status of rienda, written by the shell after it. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rienda ARGS REDIRECTIONS` in sh (`>&-`, `2>&-`), stdout and stderr otherwise pipes to the test. */
function shellRun(inst: Instance, args: string[], redirections: string): Promise<ShellResult> {
  const status = join(inst.root, `status-${Math.random().toString(36).slice(2)}`);
  const quoted = [BINARY, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${quoted} ${redirections}; echo $? > ${status}`], {
      cwd: inst.workspace,
      env: inst.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", () => resolve({ code: Number(readFileSync(status, "utf8").trim()), stdout, stderr }));
  });
}

const CLOSED_AT_START =
  "rienda: stdout was closed when the command started (as by >&-): nothing can be written to it\n";

describe("a stdout closed before the start (>&-)", () => {
  test("run: refused before any request, exit 141, one line on stderr, no session", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "touch tool-ran" } }] },
      { text: "the answer" },
    );
    for (const json of [false, true]) {
      const r = await shellRun(s.inst, ["run", "-a", "coder", "-p", "x", ...(json ? ["--json"] : [])], ">&-");
      expect(r.code).toBe(141);
      expect(r.stderr).toBe(CLOSED_AT_START);
    }
    expect(s.server.requests).toHaveLength(0);
    expect(existsSync(join(s.inst.workspace, "tool-ran"))).toBe(false);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("run with stdout on /dev/null is not closed: the run happens, exit 0", async () => {
    s = await scenario();
    s.server.script({ text: "the answer" });
    const r = await shellRun(s.inst, ["run", "-a", "coder", "-p", "x"], ">/dev/null");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^session: \S+\n$/);
    expect(s.server.requests).toHaveLength(1);
  });

  test("tool run: the tool does not run, exit 141", async () => {
    s = await scenario();
    const marker = join(s.inst.root, "tool-ran");
    s.inst.tool(
      "mark",
      `module.exports = { description: "m", parameters: { type: "object" }, execute() { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "1"); return "done"; } };`,
    );
    const r = await shellRun(s.inst, ["tool", "run", "mark"], ">&-");
    expect(r.code).toBe(141);
    expect(r.stderr).toBe(CLOSED_AT_START);
    expect(existsSync(marker)).toBe(false);
  });

  test("any other command that writes to stdout ends 141 instead of 0 (tool list)", async () => {
    s = await scenario();
    const r = await shellRun(s.inst, ["tool", "list"], ">&-");
    expect(r.code).toBe(141);
    expect(r.stderr).toBe(CLOSED_AT_START);
  });

  test("stderr closed too: exit 141, nothing else to say", async () => {
    s = await scenario();
    s.server.script({ text: "the answer" });
    const r = await shellRun(s.inst, ["run", "-a", "coder", "-p", "x"], ">&- 2>&-");
    expect(r.code).toBe(141);
    expect(r.stdout + r.stderr).toBe("");
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("a stderr closed before the start (2>&-)", () => {
  test("changes nothing: tool output, logs and notices are dropped, the answer arrives whole, exit 0", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, chatty]" });
    s.inst.tool(
      "chatty",
      `module.exports = { description: "c", parameters: { type: "object" }, execute(ctx) { ctx.log("a log line"); ctx.notify({ title: "note", body: "b" }); console.error("console"); return "ok"; } };`,
    );
    const turns = [
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "echo out; echo err >&2" } },
          { id: "c2", name: "chatty", arguments: {} },
        ],
      },
      { text: "the whole answer" },
    ];
    s.server.script(...turns, ...turns);
    for (const json of [false, true]) {
      const r = await shellRun(s.inst, ["run", "-a", "coder", "-p", "x", ...(json ? ["--json"] : [])], "2>&-");
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      if (json)
        expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "run_end", reason: "end_turn" });
      else expect(r.stdout).toBe("the whole answer\n");
    }
    expect(s.server.requests).toHaveLength(4);
  });
});
