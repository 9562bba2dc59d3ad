/**
 * The files of examples/ do what docs/examples.md says: each example tool
 * through `rienda tool run` on real files (git over a local bare remote, the
 * GitHub API stood in for by a server on 127.0.0.1), and the hooks through
 * real runs: replay for the demo agent, the scripted provider where the
 * request itself must be seen.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { Instance } from "../support/instance.ts";
import { scenario, systemOf, type Scenario } from "../support/scenario.ts";

const EXAMPLES = resolve(import.meta.dir, "../../examples");
const DEMO_PROMPT =
  "Check the release notes: how long are they, which version do they describe, and clear the build cache.";
const DEMO_KEY = "sk-demo-4f9a2c7e1b8d6f3a0c5e9b2d";

/** Copies examples/ into the instance as a user would: ~/.rienda gets the extensions, the workspace the project. */
function installExamples(inst: Instance): void {
  for (const dir of ["agents", "tools", "hooks", "replay", "skills"])
    cpSync(join(EXAMPLES, dir), inst.riendaPath(dir), { recursive: true });
  const config = readFileSync(join(EXAMPLES, "config.yaml"), "utf8").replace(
    /^( {4}script:).*$/m,
    `$1 ${JSON.stringify(inst.riendaPath("replay/demo.yaml"))}`,
  );
  inst.config(config);
  cpSync(join(EXAMPLES, "workspace"), inst.workspace, { recursive: true });
  inst.file(".cache/build.log", "stale build output\n");
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  }).trim();
}

/** Every session line of the instance, parsed. */
function sessionLines(inst: Instance): Array<Record<string, unknown>> {
  const root = inst.riendaPath("sessions");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
  return files.flatMap((f) =>
    readFileSync(join(root, f), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

describe("example tools through rienda tool run", () => {
  let inst: Instance;
  beforeEach(() => {
    inst = new Instance();
    installExamples(inst);
  });
  afterEach(() => inst.dispose());

  const tool = (name: string, args: unknown, flags: string[] = [], env: Record<string, string | undefined> = {}) =>
    inst.run(["tool", "run", name, "--args", JSON.stringify(args), ...flags], { env });

  test("every example tool is listed without diagnostics", async () => {
    const r = await inst.run(["tool", "list"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    for (const name of ["word-count", "json-field", "publish", "release-tag"]) {
      expect(r.stdout).toContain(`${name}\n`);
      expect(r.stdout).toContain(inst.riendaPath("tools", name, "index.js"));
    }
  });

  test("word-count counts the words of the demo notes and of a file of its own", async () => {
    const notes = await tool("word-count", { path: "notes.txt" });
    expect(notes.code).toBe(0);
    expect(notes.stdout).toBe("37\n");
    inst.file("docs/a.md", "  alpha\tbeta\n\ngamma  delta epsilon\n");
    const other = await tool("word-count", { path: "docs/a.md" });
    expect(other.stdout).toBe("5\n");
    inst.file("empty.txt", "");
    const empty = await tool("word-count", { path: "empty.txt" });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe("0\n");
  });

  test("word-count on a missing file is an error result naming it", async () => {
    const r = await tool("word-count", { path: "missing.txt" });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("missing.txt");
  });

  test("json-field returns the field as JSON text", async () => {
    const version = await tool("json-field", { path: "project.json", field: "version" });
    expect(version.code).toBe(0);
    expect(version.stdout).toBe('"2.4.1"\n');
    const flag = await tool("json-field", { path: "project.json", field: "private" });
    expect(flag.stdout).toBe("true\n");
  });

  test("json-field on a file that is not JSON reports the parse error; a missing field is an error, not a crash", async () => {
    const broken = await tool("json-field", { path: "notes.txt", field: "version" });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain("SyntaxError");
    const missing = await tool("json-field", { path: "project.json", field: "nope" });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("undefined");
  });

  test("json-field refuses arguments that do not match its schema without running", async () => {
    const r = await tool("json-field", { path: "project.json" });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("field");
  });

  describe("publish", () => {
    let remote: string;
    beforeEach(() => {
      remote = join(inst.root, "remote.git");
      git(inst.root, "init", "--quiet", "--bare", remote);
      git(inst.workspace, "init", "--quiet", "-b", "main");
      git(inst.workspace, "config", "user.email", "demo@example.invalid");
      git(inst.workspace, "config", "user.name", "Demo");
      git(inst.workspace, "add", "notes.txt", "project.json");
      git(inst.workspace, "commit", "--quiet", "-m", "first");
      git(inst.workspace, "remote", "add", "origin", remote);
      git(inst.workspace, "push", "--quiet", "-u", "origin", "main");
      writeFileSync(join(inst.workspace, "notes.txt"), "changed notes\n");
      git(inst.workspace, "commit", "--quiet", "-am", "second");
    });

    test("without -y the question is answered no: nothing is pushed", async () => {
      const r = await tool("publish", {});
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("cancelled by the user\n");
      expect(git(remote, "rev-parse", "main")).not.toBe(git(inst.workspace, "rev-parse", "HEAD"));
    });

    test("with -y it pushes the current branch to its remote", async () => {
      const r = await tool("publish", {}, ["-y"]);
      expect(r.stdout).toBe("pushed\n");
      expect(r.code).toBe(0);
      expect(git(remote, "rev-parse", "main")).toBe(git(inst.workspace, "rev-parse", "HEAD"));
    });

    test("with -y and a push that fails, git's message is the error result", async () => {
      git(inst.workspace, "remote", "set-url", "origin", join(inst.root, "gone.git"));
      const r = await tool("publish", {}, ["-y"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("gone.git");
    });
  });

  describe("release-tag (needs network; the GitHub API is stood in for on 127.0.0.1)", () => {
    let server: Server;
    let api: string;
    const seen: string[] = [];
    beforeEach(async () => {
      seen.length = 0;
      server = createServer((req, res) => {
        seen.push(req.url ?? "");
        if (req.url === "/repos/varavelio/rienda/releases/latest") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ tag_name: "v1.4.0", name: "Rienda 1.4" }));
        } else {
          res.writeHead(404, { "content-type": "application/json" });
          res.end('{"message":"Not Found"}');
        }
      });
      await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
      api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => new Promise<void>((done) => server.close(() => done())));

    test("returns the latest release's tag", async () => {
      const r = await tool("release-tag", { repo: "varavelio/rienda" }, [], { GITHUB_API_URL: api });
      expect(r.stdout).toBe("v1.4.0\n");
      expect(r.code).toBe(0);
      expect(seen).toEqual(["/repos/varavelio/rienda/releases/latest"]);
    });

    test("a status other than 200 is an error result", async () => {
      const r = await tool("release-tag", { repo: "nobody/nothing" }, [], { GITHUB_API_URL: api });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("HTTP 404\n");
    });

    test("an unreachable API is an error result, not a crash", async () => {
      const closed = api;
      await new Promise<void>((done) => server.close(() => done()));
      server = createServer();
      await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
      const r = await tool("release-tag", { repo: "varavelio/rienda" }, [], { GITHUB_API_URL: closed });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(closed);
      expect(r.stderr).not.toContain("internal error");
    });
  });
});

describe("the demo agent on its replay script", () => {
  let inst: Instance;
  beforeEach(() => {
    inst = new Instance();
    installExamples(inst);
  });
  afterEach(() => inst.dispose());

  test("calls its tools, the guard refuses rm -rf, the answer's key is redacted, exit 0", async () => {
    const r = await inst.run(["run", "-a", "demo", "-p", DEMO_PROMPT]);
    expect(r.stderr).not.toContain("rienda: internal");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tool: word-count {"path":"notes.txt"}\n');
    expect(r.stderr).toContain('tool: json-field {"path":"project.json","field":"version"}\n');
    expect(r.stderr).toContain('tool: shell {"command":"rm -rf .cache"}\n');
    expect(r.stderr).toContain("tool failed: refused by the user\n");
    expect(r.stderr).toContain("redact: removed 1 secret from the model's answer\n");
    expect(r.stderr).toContain("rienda: run finished: end_turn\n");
    expect(existsSync(join(inst.workspace, ".cache/build.log"))).toBe(true);
    expect(r.stdout).toContain('notes.txt has 37 words and describes version "2.4.1" of lighthouse.');
    expect(r.stdout).toContain("Rotate the staging deploy key [redacted] soon");
    expect(r.stdout).not.toContain(DEMO_KEY);
  });

  test("the tool results the replay answer relies on are the real ones", async () => {
    await inst.run(["run", "-a", "demo", "-p", DEMO_PROMPT]);
    const results = sessionLines(inst)
      .filter((l) => l.kind === "message")
      .flatMap((l) => l.blocks as Array<Record<string, unknown>>)
      .filter((b) => b.type === "tool_result")
      .map((b) => ({
        text: (b.toolResult as Array<{ text: string }>).map((t) => t.text).join(""),
        isError: b.toolResultIsError === true,
      }));
    expect(results).toEqual([
      { text: "37", isError: false },
      { text: '"2.4.1"', isError: false },
      { text: "refused by the user", isError: true },
    ]);
  });

  test("with --json every hook's work is an event: date each turn, guard's refusal, redact's change", async () => {
    const r = await inst.run(["run", "--json", "-a", "demo", "-p", DEMO_PROMPT]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const hooks = events.filter((e) => e.type === "hook").map((e) => `${e.name} ${e.point} ${e.outcome}`);
    expect(hooks).toEqual([
      "date beforeModelRequest changed",
      "date beforeModelRequest changed",
      "guard beforeToolExecute refused",
      "date beforeModelRequest changed",
      "redact afterModelResponse changed",
    ]);
    expect(events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.text, e.isError])).toEqual([
      ["word-count", "37", false],
      ["json-field", '"2.4.1"', false],
      ["shell", "refused by the user", true],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
    expect(r.stdout).not.toContain(DEMO_KEY);
  });

  test("the session file holds the redacted answer, never the key", async () => {
    await inst.run(["run", "-a", "demo", "-p", DEMO_PROMPT]);
    const root = inst.riendaPath("sessions");
    const text = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(root, f), "utf8"))
      .join("");
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(DEMO_KEY);
  });

  test("with -y the guard's question is answered yes and the cache is cleared", async () => {
    const r = await inst.run(["run", "-y", "-a", "demo", "-p", DEMO_PROMPT]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("tool failed");
    expect(existsSync(join(inst.workspace, ".cache"))).toBe(false);
  });

  test("a fourth request runs out of the script with a clear error", async () => {
    const first = await inst.run(["run", "-a", "demo", "-p", DEMO_PROMPT]);
    const id = /^session: (\S+)$/m.exec(first.stderr)?.[1];
    expect(id).toBeDefined();
    const again = await inst.run(["run", "-s", id!, "-p", "and now?"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `replay script ${inst.riendaPath("replay/demo.yaml")} ran out of turns: it has 3 turns and the conversation needs turn 4`,
    );
  });
});

describe("the example hooks on a scripted provider", () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.dispose();
    s = undefined;
  });

  const installHook = (name: string) =>
    s!.inst.hook(name, readFileSync(join(EXAMPLES, "hooks", name, "index.js"), "utf8"));
  const localDate = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

  test("date adds today's date to the system prompt of every request, and the session keeps none of it", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [date]", agentBody: "You are terse." });
    installHook("date");
    const before = new Date();
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    const after = new Date();
    expect(r.code).toBe(0);
    // The binary and this process may disagree on the time zone, and midnight may pass: accept any of those dates.
    const dates = new Set([
      localDate(before),
      localDate(after),
      before.toISOString().slice(0, 10),
      after.toISOString().slice(0, 10),
    ]);
    expect(s.server.requests).toHaveLength(2);
    for (const request of s.server.requests) {
      const system = systemOf(request);
      const match = /^You are terse\.\n\nToday's date is (\d{4}-\d{2}-\d{2})\.$/.exec(system);
      expect(match).not.toBeNull();
      expect(dates.has(match![1]!)).toBe(true);
    }
    const sessions = readdirSync(s.inst.riendaPath("sessions"), { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".jsonl"),
    );
    const stored = sessions.map((f) => readFileSync(join(s!.inst.riendaPath("sessions"), f), "utf8")).join("");
    expect(stored).not.toContain("Today's date");
  });

  test("redact hides secrets of several kinds, in text and thinking, before stdout and the next request", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [redact]" });
    installHook("redact");
    const github = `ghp_${"a1B2".repeat(9)}`;
    const aws = "AKIAIOSFODNN7EXAMPLE";
    s.server.script({ thinking: `the key is ${aws}`, text: `Use ${github} and sk-ant-api03-${"x".repeat(30)} here.` });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Use [redacted] and [redacted] here.\n");
    expect(r.stderr).toContain("redact: removed 3 secrets from the model's answer\n");
    const stored = readdirSync(s.inst.riendaPath("sessions"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(s!.inst.riendaPath("sessions"), f), "utf8"))
      .join("");
    expect(stored).not.toContain(github);
    expect(stored).not.toContain(aws);
  });

  test("redact leaves an answer without secrets alone and says nothing", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [redact]" });
    installHook("redact");
    s.server.script({ text: "Nothing secret: sk-short and AKIA1 stay." });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.stdout).toBe("Nothing secret: sk-short and AKIA1 stay.\n");
    expect(r.stderr).not.toContain("redact:");
  });

  test("redact takes extra patterns from config.yaml and skips a broken one with a notice", async () => {
    s = await scenario({
      agentFrontmatter: "hooks: [redact]",
      configExtra: 'config:\n  redact:\n    patterns: ["corp-[0-9a-f]{8}", "([", "x*"]',
    });
    installHook("redact");
    s.server.script({ text: "token corp-deadbeef ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("token [redacted] ok\n");
    expect(r.stderr).toContain('redact: ignoring config.redact.patterns entry "(["');
    expect(r.stderr).toContain('redact: ignoring config.redact.patterns entry "x*": it matches the empty string');
  });

  test("guard lets a harmless shell command through and notifies when the run ends", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    installHook("guard");
    mkdirSync(join(s.inst.workspace, "keep"));
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo fine" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("tool failed");
    expect(r.stderr).toContain("rienda: run finished: end_turn\n");
  });
});

describe("the skills example: the writer agent and the release-notes skill", () => {
  let inst: Instance;
  beforeEach(() => {
    inst = new Instance();
    installExamples(inst);
  });
  afterEach(() => inst.dispose());

  test("loads the skill, reads its style guide and answers in that style, offline", async () => {
    const r = await inst.run(["run", "-a", "writer", "-p", "Write the release notes of this version."]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "**lighthouse 2.4.1**\n- Fixed the flicker in night mode\n- Made the start screen faster\n",
    );
    expect(r.stderr).toContain('tool: skill {"name":"release-notes"}\n');
    expect(r.stderr).toContain('tool: skill {"name":"release-notes","file":"references/style.md"}\n');
    // The tool results stored in the session: the instructions with the file list, then the style guide.
    const results = sessionLines(inst)
      .filter((line) => line.kind === "message" && line.role === "user")
      .flatMap((line) =>
        (line.blocks as { type: string; toolResult?: { text: string }[] }[]).filter((b) => b.type === "tool_result"),
      )
      .map((b) => b.toolResult!.map((t) => t.text).join(""));
    expect(results[0]).toStartWith("# Release notes\n");
    expect(results[0]).toContain("- references/style.md");
    expect(results[1]).toStartWith("# House style for release notes");
    expect(results[2]).toBe('"2.4.1"');
  });
});
