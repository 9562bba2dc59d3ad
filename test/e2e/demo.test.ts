/**
 * `make demo` runs scripts/demo.sh: the examples installed in a throwaway
 * HOME, the demo agent run offline on its replay script. These tests run the
 * script against the binary under test and read what a newcomer would see.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { BINARY, Instance, type RunResult } from "../support/instance.ts";

const SCRIPT = resolve(import.meta.dir, "../../scripts/demo.sh");

/** Runs the demo with only the environment a shell would have; temp files go to `tmp`. */
function demo(
  inst: Instance,
  tmp: string,
  extra: Record<string, string> = {},
  args: string[] = [],
): Promise<RunResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: inst.home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    RIENDA_BINARY: BINARY,
    ...extra,
  };
  const child = spawn("sh", [SCRIPT, ...args], { cwd: inst.workspace, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })));
}

describe("scripts/demo.sh", () => {
  let inst: Instance;
  let tmp: string;
  beforeEach(() => {
    inst = new Instance();
    tmp = join(inst.root, "tmp");
    mkdirSync(tmp);
  });
  afterEach(() => inst.dispose());

  test("shows the tool calls, the hooks at work and the redacted answer, and exits 0", async () => {
    const r = await demo(inst, tmp);
    expect(r.stderr).not.toContain("rienda: internal");
    expect(r.code).toBe(0);
    // The command it runs, then the answer on stdout.
    expect(r.stdout).toContain('$ rienda run -a demo -p "Check the release notes');
    expect(r.stdout).toContain('notes.txt has 37 words and describes version "2.4.1" of lighthouse.');
    expect(r.stdout).toContain("Rotate the staging deploy key [redacted] soon");
    expect(r.stdout).not.toContain("sk-demo-");
    // Tool calls and hooks on stderr.
    expect(r.stderr).toMatch(/^session: \S+$/m);
    expect(r.stderr).toContain('tool: word-count {"path":"notes.txt"}');
    expect(r.stderr).toContain('tool: json-field {"path":"project.json","field":"version"}');
    expect(r.stderr).toContain('tool: shell {"command":"rm -rf .cache"}');
    expect(r.stderr).toContain("tool failed: refused by the user");
    expect(r.stderr).toContain("notice: redact: removed 1 secret from the model's answer\n");
    expect(r.stderr).toContain("notice: rienda: run finished: end_turn\n");
    expect(r.stdout).toContain("demo: .cache is still in the workspace (the guard hook stopped rm -rf)");
    expect(r.stdout).toEndWith("demo: rienda run exited with status 0\n");
  });

  test("touches neither the caller's HOME nor the current directory, and removes its throwaway files", async () => {
    const r = await demo(inst, tmp, { RIENDA_CONFIG: join(inst.root, "not-there.yaml") });
    expect(r.code).toBe(0);
    expect(readdirSync(inst.riendaPath())).toEqual([]);
    expect(readdirSync(inst.workspace)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("DEMO_KEEP=1 keeps the throwaway HOME and workspace and says where", async () => {
    const r = await demo(inst, tmp, { DEMO_KEEP: "1" });
    expect(r.code).toBe(0);
    const [kept] = readdirSync(tmp);
    expect(kept).toStartWith("rienda-demo.");
    expect(r.stderr).toContain(`demo: kept ${join(tmp, kept!)}`);
    expect(readdirSync(join(tmp, kept!, "workspace")).sort()).toEqual([".cache", "notes.txt", "project.json"]);
    expect(readdirSync(join(tmp, kept!, "home/.rienda/sessions")).length).toBe(1);
  });

  test("the skills example shows the skill tool loading the skill and its style guide, and exits 0", async () => {
    const r = await demo(inst, tmp, {}, ["skills"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ rienda run -a writer -p "Write the release notes of this version."');
    expect(r.stdout).toContain(
      "**lighthouse 2.4.1**\n- Fixed the flicker in night mode\n- Made the start screen faster\n",
    );
    expect(r.stderr).toContain('tool: skill {"name":"release-notes"}\n');
    expect(r.stderr).toContain('tool: skill {"name":"release-notes","file":"references/style.md"}\n');
    expect(r.stdout).toEndWith("demo: rienda run exited with status 0\n");
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("the subagents example shows the reviewer's tool calls under the lead's call, and exits 0", async () => {
    const r = await demo(inst, tmp, {}, ["subagents"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ rienda run -a lead -p "Get the release notes reviewed before we tag 2.4.1."');
    expect(r.stdout).toContain(
      "Handing the review to the reviewer.\nThe reviewer checked notes.txt: it describes 2.4.1",
    );
    expect(r.stdout).not.toContain("Problem: notes.txt holds a deploy key");
    expect(r.stderr).toContain(
      'tool: agent__reviewer {"prompt":"Review notes.txt in the workspace for the 2.4.1 release: version and length."}\n' +
        '  tool: json-field {"path":"project.json","field":"version"}\n' +
        '  tool: word-count {"path":"notes.txt"}\n',
    );
    expect(r.stdout).toEndWith("demo: rienda run exited with status 0\n");
  });

  test("an unknown example is named, with the ones there are, and exits 1", async () => {
    const r = await demo(inst, tmp, {}, ["nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('demo: unknown example "nope" (examples: demo, skills, subagents)\n');
  });

  test("without a binary it says how to build one and exits 1", async () => {
    const r = await demo(inst, tmp, { RIENDA_BINARY: join(inst.root, "no-rienda") });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`demo: ${join(inst.root, "no-rienda")} is missing: run make build first\n`);
  });
});
