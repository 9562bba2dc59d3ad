/**
 * Honest endings: an answer cut at max_tokens says so and fails; a run that
 * cannot make its first request leaves no session; `-s ID` continues where
 * the session was started; `--json` keeps the session id in run_start.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Instance } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles, sessionIdFrom } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

let s: Scenario | undefined;
let inst: Instance | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
  inst?.dispose();
  inst = undefined;
});

describe("an answer cut at max_tokens", () => {
  test("plain: the partial answer on stdout, a notice naming the config key on stderr, exit 1", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [ending]" });
    s.inst.hook("ending", `module.exports = { afterRun(ctx, event) { ctx.file.write("reason", event.reason); } };`);
    s.server.script({ text: "The three steps are: first, open the", stopReason: "max_tokens" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "explain"]);
    expect(r.stdout).toBe("The three steps are: first, open the\n");
    expect(r.stderr).toContain(
      "rienda: the answer was cut short: the model reached its output limit (max_tokens); raise providers.p.models.m.max_tokens in config.yaml, or ask for a shorter answer",
    );
    expect(r.code).toBe(1);
    // afterRun hooks keep the three reasons of hooks.md: a cut answer is an error.
    expect(readFileSync(join(s.inst.workspace, "reason"), "utf8")).toBe("error");
  });

  test("--json: run_end reason max_tokens with the message, exit 1", async () => {
    s = await scenario({ modelExtra: "        max_tokens: 64" });
    s.server.script({ text: "cut here", stopReason: "max_tokens" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "explain", "--json"]);
    expect(r.code).toBe(1);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.find((e) => e.type === "message_end")).toMatchObject({ text: "cut here", stopReason: "max_tokens" });
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "run_end", reason: "max_tokens" });
    expect(end.message).toBe(
      "the answer was cut short: the model reached its output limit (max_tokens); raise providers.p.models.m.max_tokens in config.yaml (now 64), or ask for a shorter answer",
    );
    expect(events.some((e) => e.type === "error")).toBe(false);
  });
});

describe("an answer the provider ends as a refusal", () => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "wire-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const anthropic = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

  test("cut by a content filter: the text is printed and stored, but the run fails (exit 1) saying why", async () => {
    s = await scenario();
    s.server.script({
      recorded:
        chunk({ role: "assistant", content: "Here is how to" }) + chunk({}, "content_filter") + "data: [DONE]\n\n",
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(1);
    const events = r.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { type: string; reason?: string; message?: string; stopReason?: string; text?: string },
      );
    expect(events.find((e) => e.type === "message_end")).toMatchObject({
      text: "Here is how to",
      stopReason: "refusal",
    });
    expect(events.at(-1)).toMatchObject({
      type: "run_end",
      reason: "error",
      message:
        "the provider ended the answer as a refusal (the model declined, or a content filter stopped it); the text before it is printed and stored",
    });
  });

  test("a refusal with no text is not retried as an empty answer", async () => {
    s = await scenario({ protocol: "anthropic" });
    const message = {
      id: "m1",
      type: "message",
      role: "assistant",
      content: [],
      model: "wire-model",
      stop_reason: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    };
    s.server.script({
      recorded:
        anthropic("message_start", { message }) +
        anthropic("message_delta", { delta: { stop_reason: "refusal" }, usage: { output_tokens: 1 } }) +
        anthropic("message_stop", {}),
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toContain(
      "rienda: the provider ended the answer as a refusal (the model declined, or a content filter stopped it)\n",
    );
    expect(s.server.requests).toHaveLength(1);
  });
});

describe("a run that fails before its first request", () => {
  test("a missing replay script: exit 1 naming it, no session file", async () => {
    inst = new Instance();
    inst.config(
      [
        "providers:",
        "  replay:",
        "    protocol: replay",
        "    script: replay/missing.yaml",
        "    models:",
        "      demo: {}",
        "",
      ].join("\n"),
    );
    inst.agent("bot", ["---", "description: d", "model: replay/demo", "---", "hi", ""].join("\n"));
    const r = await inst.run(["run", "-a", "bot", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: replay script ${inst.riendaPath("replay", "missing.yaml")} does not exist (providers.replay.script in ${inst.riendaPath("config.yaml")})`,
    );
    expect(r.stderr).not.toContain("session:");
    expect(sessionFiles(inst.home)).toHaveLength(0);
  });

  test("a broken replay script: exit 1, no session file", async () => {
    inst = new Instance();
    inst.config(
      [
        "providers:",
        "  replay:",
        "    protocol: replay",
        "    script: replay/broken.yaml",
        "    models:",
        "      demo: {}",
        "",
      ].join("\n"),
    );
    inst.write(inst.riendaPath("replay", "broken.yaml"), "not: a list\n");
    inst.agent("bot", ["---", "description: d", "model: replay/demo", "---", "hi", ""].join("\n"));
    const r = await inst.run(["run", "-a", "bot", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("broken.yaml");
    expect(sessionFiles(inst.home)).toHaveLength(0);
  });

  test("a replay script with no turns: exit 1 naming it, no session file (doctor calls it a problem too)", async () => {
    inst = new Instance();
    inst.config(
      [
        "providers:",
        "  replay:",
        "    protocol: replay",
        "    script: replay/empty.yaml",
        "    models:",
        "      demo: {}",
        "",
      ].join("\n"),
    );
    inst.write(inst.riendaPath("replay", "empty.yaml"), "[]\n");
    inst.agent("bot", ["---", "description: d", "model: replay/demo", "---", "hi", ""].join("\n"));
    const r = await inst.run(["run", "-a", "bot", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: replay script ${inst.riendaPath("replay", "empty.yaml")} has no turns, so the run could not get a first answer (providers.replay.script in ${inst.riendaPath("config.yaml")})`,
    );
    expect(r.stderr).not.toContain("session:");
    expect(sessionFiles(inst.home)).toHaveLength(0);
    const doctor = await inst.run(["doctor"]);
    expect(doctor.stdout).toContain(
      `problem: ${inst.riendaPath("replay", "empty.yaml")}: replay script of provider "replay" has no turns; agent "bot" (replay/demo) uses it\n`,
    );
  });
});

describe("-s ID from another directory", () => {
  test("continues in the session's workspace and says so; -C runs it where it says", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ text: "started" });
    const first = await s.inst.run(["run", "-a", "coder", "-p", "one"]);
    const id = sessionIdFrom(first.stderr);
    const elsewhere = join(s.inst.root, "elsewhere");
    mkdirSync(elsewhere);

    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch here" } }] },
      { text: "done" },
    );
    const second = await s.inst.run(["run", "-s", id, "-p", "two"], { cwd: elsewhere });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      `continuing session ${id} in its workspace ${s.inst.workspace} (not the current directory; -C DIR runs it elsewhere)`,
    );
    expect(existsSync(join(s.inst.workspace, "here"))).toBe(true);
    expect(existsSync(join(elsewhere, "here"))).toBe(false);

    s.server.script(
      { toolCalls: [{ id: "c2", name: "shell", arguments: { command: "touch moved" } }] },
      { text: "done" },
    );
    const third = await s.inst.run(["run", "-s", id, "-C", elsewhere, "-p", "three"], { cwd: elsewhere });
    expect(third.code).toBe(0);
    expect(third.stderr).not.toContain("continuing session");
    expect(existsSync(join(elsewhere, "moved"))).toBe(true);
  });

  test("a recorded workspace that no longer exists is refused, asking for -C; nothing is sent or written", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const gone = join(s.inst.root, "gone");
    mkdirSync(gone);
    s.server.script({ text: "started" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"], { cwd: gone })).stderr);
    rmSync(gone, { recursive: true });
    const file = sessionFiles(s.inst.home)[0]!;
    const before = readFileSync(file, "utf8");

    for (const json of [false, true]) {
      const r = await s.inst.run(["run", "-s", id, "-p", "two", ...(json ? ["--json"] : [])]);
      expect(r.code).toBe(1);
      const message = `session ${id} was started in ${gone}, which no longer exists; continue it elsewhere with -C DIR`;
      if (json)
        expect(r.stdout.trim().split("\n").at(-1)).toBe(
          JSON.stringify({
            type: "run_end",
            reason: "error",
            message,
            usage: null,
            tools: { calls: 0, failed: 0, refused: 0 },
          }),
        );
      else expect(r.stderr).toBe(`rienda: ${message}\n`);
    }
    expect(s.server.requests).toHaveLength(1);
    expect(readFileSync(file, "utf8")).toBe(before);

    s.server.script({ text: "moved on" });
    const moved = await s.inst.run(["run", "-s", id, "-p", "two", "-C", s.inst.workspace]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe("moved on\n");
  });

  test("the chat: rienda -s ID continues in the session's workspace and says so", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ text: "started" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"])).stderr);
    const elsewhere = join(s.inst.root, "elsewhere");
    mkdirSync(elsewhere);
    s.server.script(
      { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch here" } }] },
      { text: "done" },
    );
    term = Terminal.start(s.inst, { args: ["-s", id], cwd: elsewhere, width: 200 });
    await term.waitFor(`continuing session ${id} in its workspace ${s.inst.workspace}`);
    await term.waitForPrompt();
    term.line("touch it");
    await term.waitForPrompt(1);
    expect(existsSync(join(s.inst.workspace, "here"))).toBe(true);
    expect(existsSync(join(elsewhere, "here"))).toBe(false);
  });

  test("--json: run_start carries the session's workspace", async () => {
    s = await scenario();
    s.server.script({ text: "started" }, { text: "again" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "one"])).stderr);
    const r = await s.inst.run(["run", "-s", id, "-p", "two", "--json"], { cwd: s.inst.root });
    const start = JSON.parse(r.stdout.split("\n")[0]!) as { workdir: string };
    expect(start.workdir).toBe(s.inst.workspace);
  });
});

describe("--json and the session line", () => {
  test("the session id is in run_start and stderr has no session: line, as cli.md says", async () => {
    s = await scenario();
    s.server.script({ text: "hello" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const start = JSON.parse(r.stdout.split("\n")[0]!) as { type: string; sessionId: string };
    expect(start.type).toBe("run_start");
    const [file] = sessionFiles(s.inst.home);
    expect(file!.endsWith(`${start.sessionId}.jsonl`)).toBe(true);
    const doc = readFileSync(join(import.meta.dir, "../../docs/cli.md"), "utf8");
    expect(doc).toContain("The session id is in `run_start`; stderr carries nothing a script");
  });
});
