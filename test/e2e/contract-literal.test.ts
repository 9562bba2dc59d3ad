/**
 * Statements of the spec pages checked word for word against the binary,
 * where an earlier reading of ours had drifted from the literal text:
 * the session directory's slug (contract §6), the shell-override diagnostic
 * in doctor (contract §5), and options written before the command (§1, §4).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** §6 read literally: runs of characters other than letters/digits/_ become "-", at most 100 bytes; then "-" and hash8. */
function literalDirName(workspace: string): string {
  const slug = Buffer.from(workspace.replace(/[^A-Za-z0-9_]+/g, "-"))
    .subarray(0, 100)
    .toString();
  return `${slug}-${createHash("sha256").update(workspace).digest("hex").slice(0, 8)}`;
}

describe("session directory (contract §6)", () => {
  test("a run stores its session under the literal slug of the workspace path and its hash8", async () => {
    s = await scenario();
    s.server.script({ text: "hi" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(0);
    const id = sessionIdFrom(r.stderr);
    const dir = literalDirName(s.inst.workspace);
    expect(dir.startsWith("-")).toBe(true);
    expect(readdirSync(s.inst.riendaPath("sessions"))).toEqual([dir]);
    expect(existsSync(s.inst.riendaPath("sessions", dir, `${id}.jsonl`))).toBe(true);
  });

  test("a long workspace path is cut to 100 bytes of slug", async () => {
    s = await scenario();
    const deep = join(s.inst.workspace, ...Array.from({ length: 8 }, (_, i) => `segment-number-${i}`));
    mkdirSync(deep, { recursive: true });
    s.server.script({ text: "hi" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello", "-C", deep]);
    expect(r.code).toBe(0);
    const [dir] = readdirSync(s.inst.riendaPath("sessions"));
    expect(dir).toBe(literalDirName(deep));
    expect(Buffer.byteLength(dir!) - "-12345678".length).toBe(100);
  });

  test("sessions kept under a slug without its leading dash (earlier builds) are still listed and continued", async () => {
    s = await scenario();
    s.server.script({ text: "first" }, { text: "second" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    const id = sessionIdFrom(r.stderr);
    const literal = s.inst.riendaPath("sessions", literalDirName(s.inst.workspace));
    renameSync(literal, s.inst.riendaPath("sessions", literalDirName(s.inst.workspace).slice(1)));
    const listed = await s.inst.run(["sessions"]);
    expect(listed.stdout).toContain(id);
    const again = await s.inst.run(["run", "-s", id, "-p", "more"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("second\n");
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("first");
  });
});

describe("a user tool named shell (contract §5)", () => {
  test('doctor reports it with the diagnostic\'s words: tool "shell" replaces a built-in tool', async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.inst.tool(
      "shell",
      'module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "x"; } };',
    );
    const doctor = await s.inst.run(["doctor"]);
    expect(doctor.stdout).toContain('tool "shell" replaces a built-in tool');
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stderr).toContain('tool "shell" replaces a built-in tool');
  });
});

describe("options written before the command", () => {
  test("rienda --config PATH run ... reads that config, as rienda run --config PATH does", async () => {
    s = await scenario();
    const config = s.inst.riendaPath("config.yaml");
    const elsewhere = join(s.inst.root, "elsewhere.yaml");
    renameSync(config, elsewhere);
    s.server.script({ text: "from elsewhere" });
    const r = await s.inst.run(["--config", elsewhere, "run", "-a", "coder", "-p", "hello"]);
    expect(r.stderr).not.toContain("internal error");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("from elsewhere\n");
  });

  test("rienda -C DIR tool run NAME takes the workspace given before the command", async () => {
    s = await scenario();
    const other = join(s.inst.root, "other");
    mkdirSync(other);
    const r = await s.inst.run(["-C", other, "tool", "run", "shell", "--args", '{"command":"pwd"}']);
    expect(r.stderr).not.toContain("internal error");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${other}\n`);
  });

  test("an option the command does not take is refused by name, never an internal error", async () => {
    s = await scenario();
    const r = await s.inst.run(["-a", "coder", "sessions"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: sessions: unknown option -a (see rienda sessions --help)\n");
  });
});

describe("unknown tool named by the agent (contract §3)", () => {
  const wordCount =
    'module.exports = { description: "wc", parameters: { type: "object" }, execute() { return "1"; } };';

  test('the spec\'s form `unknown tool "x" (available: shell, word-count)` is part of the message word for word, near-miss or broken tools beside it', async () => {
    s = await scenario();
    s.inst.tool("word-count", wordCount);
    for (const name of ["ghost", "word-cont", "shel"]) {
      s.inst.agent("coder", `---\ndescription: d\nmodel: p/m\ntools: [${name}]\n---\nb\n`);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rienda: unknown tool "${name}" (available: shell, word-count)`);
    }
    expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr).toContain('; did you mean "shell"?');
    s.inst.tool("half", "module.exports = { description: 'half' };\n");
    s.inst.agent("coder", "---\ndescription: d\nmodel: p/m\ntools: [ghost]\n---\nb\n");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).toBe('rienda: unknown tool "ghost" (available: shell, word-count); not loading: half\n');
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("output cap (tools.md: 256 KiB, cut on a rune boundary)", () => {
  test("what the model reads of a long result is at most 256 KiB, cut between characters, marked", async () => {
    s = await scenario({ agentFrontmatter: "tools: [long]" });
    s.inst.tool(
      "long",
      'module.exports = { description: "d", parameters: { type: "object" }, execute() { return "a" + "é".repeat(200000); } };',
    );
    s.server.script({ toolCalls: [{ name: "long", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const [result] = toolResultsOf(s.server.requests[1]!);
    expect(Buffer.byteLength(result!)).toBeLessThanOrEqual(256 * 1024);
    expect(Buffer.byteLength(result!)).toBeGreaterThan(256 * 1024 - 64);
    expect(result).not.toContain("\uFFFD");
    expect(result!.startsWith("aéé")).toBe(true);
    expect(result!.endsWith("é\n[output truncated]")).toBe(true);
    const run = await s.inst.run(["tool", "run", "long", "--args", "{}"]);
    expect(Buffer.byteLength(run.stdout)).toBeLessThanOrEqual(256 * 1024 + 1);
  });
});

describe("config path precedence (contract §1) in tool run", () => {
  test("--config PATH beats RIENDA_CONFIG, which beats ~/.rienda/config.yaml, for ctx.config", async () => {
    s = await scenario({ configExtra: "config:\n  which: { from: home }" });
    s.inst.tool(
      "which",
      'module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return ctx.config.config.which.from; } };',
    );
    const home = await Bun.file(s.inst.riendaPath("config.yaml")).text();
    const fromEnv = s.inst.write(join(s.inst.root, "env.yaml"), home.replace("from: home", "from: env"));
    const fromFlag = s.inst.write(join(s.inst.root, "flag.yaml"), home.replace("from: home", "from: flag"));
    const run = (extra: string[], env: Record<string, string> = {}) =>
      s!.inst.run(["tool", "run", "which", "--args", "{}", ...extra], { env });
    expect((await run([])).stdout).toBe("home\n");
    expect((await run([], { RIENDA_CONFIG: fromEnv })).stdout).toBe("env\n");
    const flagged = await run(["--config", fromFlag], { RIENDA_CONFIG: fromEnv });
    expect(flagged.stderr).toBe("");
    expect(flagged.stdout).toBe("flag\n");
    expect((await s.inst.run(["tool", "list", "--config", fromFlag])).code).toBe(0);
  });
});
