/**
 * Bounded runs (docs/cli.md "Limits", "Exit statuses"): --max-turns,
 * --max-cost and --timeout, as flags, agent frontmatter and config.yaml
 * `limits:`; each ends the run with exit 3 and its own run_end reason, the
 * session consistent and continuable.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { processRunning } from "../support/processes.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

setDefaultTimeout(30_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

type Event = Record<string, unknown> & { type: string };
const events = (stdout: string): Event[] =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Event);
const runEnd = (stdout: string): Event => events(stdout).at(-1)!;

/** A model that calls the shell tool every turn. */
const looping = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    text: `step ${i + 1}`,
    toolCalls: [{ id: `c${i + 1}`, name: "shell", arguments: { command: `echo ${i + 1}` } }],
  }));

describe("--max-turns", () => {
  test("stops before the request past the limit: exit 3, run_end max_turns naming the flag", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(...looping(5));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "2", "--json"]);
    expect(r.code).toBe(3);
    expect(s.server.requests).toHaveLength(2);
    const end = runEnd(r.stdout);
    expect(end).toMatchObject({ type: "run_end", reason: "max_turns", tools: { calls: 2, failed: 0, refused: 0 } });
    expect(end.message).toBe("the run reached its limit of 2 model requests (--max-turns 2) before the agent finished");
  });

  test("plain: the failure line names the limit; the session continues with -s, well-formed", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(...looping(1), { text: "continued" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "1"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      "rienda: the run reached its limit of 1 model request (--max-turns 1) before the agent finished",
    );
    const id = sessionIdFrom(r.stderr);
    const again = await s.inst.run(["run", "-s", id, "-p", "and now?"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("continued\n");
    // The model learns that the run was stopped there, and the new prompt is a message of its own.
    const messages = (s.server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(messages[4]!.content).toBe(
      "[This request was stopped before it was finished: the run reached its limit of model requests, cost or time. What follows is a new message.]",
    );
    expect(messageEntries(sessionFile(s.inst.home, id)).map((e) => e.role)).toEqual([
      "user",
      "assistant",
      "user",
      "user",
      "assistant",
    ]);
  });

  test("from the agent's frontmatter, from config.yaml, the command line winning", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nmax_turns: 3", configExtra: "limits:\n  max_turns: 1" });
    s.server.script(...looping(5));
    const fromAgent = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(fromAgent.code).toBe(3);
    expect(runEnd(fromAgent.stdout).message).toBe(
      `the run reached its limit of 3 model requests (max_turns: 3 in ${s.inst.riendaPath("agents", "coder.md")}) before the agent finished`,
    );
    expect(s.server.requests).toHaveLength(3);

    s.server.script(...looping(5));
    const fromFlag = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json", "--max-turns", "2"]);
    expect(runEnd(fromFlag.stdout).message).toContain("(--max-turns 2)");
    expect(s.server.requests).toHaveLength(5);

    s.inst.agent("plain", "---\ndescription: d\nmodel: p/m\ntools: [shell]\n---\nbody\n");
    s.server.script(...looping(5));
    const fromConfig = await s.inst.run(["run", "-a", "plain", "-p", "go", "--json"]);
    expect(runEnd(fromConfig.stdout).message).toContain(`(limits.max_turns: 1 in ${s.inst.riendaPath("config.yaml")})`);
    expect(s.server.requests).toHaveLength(6);
  });

  test("afterRun hooks see the run ended in error", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [audit]" });
    s.inst.hook("audit", `module.exports = { afterRun(ctx, end) { ctx.file.write("end.txt", end.reason); } };\n`);
    s.server.script(...looping(2));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "1"]);
    expect(r.code).toBe(3);
    expect(Bun.file(join(s.inst.workspace, "end.txt")).size).toBeGreaterThan(0);
    expect(await Bun.file(join(s.inst.workspace, "end.txt")).text()).toBe("error");
  });

  test("bad values are refused before any request, naming the flag or the file and key", async () => {
    s = await scenario();
    for (const [args, message] of [
      [["--max-turns", "0"], 'run: --max-turns must be a whole number of model requests, 1 or more (got "0")'],
      [["--max-turns", "two"], "run: --max-turns must be a whole number"],
      [["--max-cost=-1"], "run: --max-cost must be an amount of US dollars above 0"],
      [["--timeout", "soon"], 'run: --timeout "soon" is not a duration such as "90s"'],
      [["--timeout", "0s"], "run: --timeout must be more than 0"],
    ] as const) {
      const r = await s.inst.run(["run", "-a", "coder", "-p", "go", ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rienda: ${message}`);
    }
    s.inst.agent("bad", "---\ndescription: d\nmodel: p/m\nmax_turns: 1.5\ntimeout: forever\n---\nbody\n");
    const bad = await s.inst.run(["run", "-a", "bad", "-p", "go"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `${s.inst.riendaPath("agents", "bad.md")}: max_turns: must be a whole number of model requests, 1 or more, not a number (1.5)`,
    );
    expect(bad.stderr).toContain(`${s.inst.riendaPath("agents", "bad.md")}: timeout: "forever" is not a duration`);
    expect(s.server.requests).toHaveLength(0);
  });

  test("a broken limits: block in config.yaml names the file and key", async () => {
    s = await scenario({ configExtra: "limits:\n  max_cost: free\n  turns: 3" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("limits.max_cost: must be an amount of US dollars above 0, such as 0.50, not a string");
    expect(r.stderr).toContain("limits.turns");
    expect(s.server.requests).toHaveLength(0);
  });
});

const PRICED = "        cost: { input: 3, output: 15 }";

describe("--max-cost", () => {
  test("stops before the next request once the run has spent it", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]", modelExtra: PRICED });
    // 100,000 tokens in at $3 per million: $0.30 a turn.
    s.server.script(...looping(5).map((turn) => ({ ...turn, usage: { input: 100_000, output: 0 } })));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-cost", "0.5", "--json"]);
    expect(r.code).toBe(3);
    expect(s.server.requests).toHaveLength(2);
    const end = runEnd(r.stdout);
    expect(end).toMatchObject({ reason: "max_cost", cost: 0.6 });
    expect(end.message).toBe(
      "the run reached its cost limit of $0.5 (--max-cost 0.5) with $0.60 spent, before the agent finished",
    );
  });

  test("a model without prices refuses the flag before any request", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-cost", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: --max-cost 1 needs the prices of model p/m, which has none: set providers.p.models.m.cost in config.yaml",
    );
    expect(s.server.requests).toHaveLength(0);
    expect(r.stderr).not.toContain("session:");
  });
});

describe("--timeout", () => {
  test("a model that never answers: exit 3, run_end timeout, the session continuable", async () => {
    s = await scenario();
    s.server.script({ text: "never finished", hang: true }, { text: "back again" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "1s", "--json"]);
    expect(r.code).toBe(3);
    const end = runEnd(r.stdout);
    expect(end).toMatchObject({ reason: "timeout", message: "the run reached its time limit of 1s (--timeout 1s)" });
    const id = events(r.stdout)[0]!.sessionId as string;
    const again = await s.inst.run(["run", "-s", id, "-p", "try again"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("back again\n");
  });

  test("a tool still running is stopped with its process group", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({
      toolCalls: [{ id: "c1", name: "shell", arguments: { command: "sleep 30 & echo $! > bg.pid; sleep 30" } }],
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "2s"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("rienda: the run reached its time limit of 2s (--timeout 2s)");
    const pid = Number(await Bun.file(join(s.inst.workspace, "bg.pid")).text());
    // The background sleep went with its group.
    await waitFor(() => !processRunning(pid), 5_000, "the background sleep to die");
    const entries = messageEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr)));
    expect(entries.map((e) => e.role)).toEqual(["user", "assistant", "user"]);
  });

  test("a stdin that never closes ends at the time limit, without a request", async () => {
    s = await scenario();
    const fifo = join(s.inst.root, "stdin.fifo");
    execFileSync("mkfifo", [fifo]);
    // Read and write: the FIFO has a writer for as long as the test holds it, so it never ends.
    const fd = openSync(fifo, "r+");
    try {
      const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "1s"], { stdinFd: fd });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("rienda: the run reached its time limit of 1s (--timeout 1s)");
      expect(s.server.requests).toHaveLength(0);
    } finally {
      closeSync(fd);
    }
  });

  test("timeout: in the agent's frontmatter", async () => {
    s = await scenario({ agentFrontmatter: "timeout: 1s" });
    s.server.script({ text: "never", hang: true });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.code).toBe(3);
    expect(runEnd(r.stdout).message).toBe(
      `the run reached its time limit of 1s (timeout: 1s in ${s.inst.riendaPath("agents", "coder.md")})`,
    );
  });
});
