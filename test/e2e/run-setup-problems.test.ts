/**
 * What `rienda run` says when it cannot start: every problem at once (as
 * doctor does), each name it does not know with the closest one it does,
 * and the lists of what is available keeping broken extensions apart.
 * Nothing is sent and no session is written.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const TOOL = (description: string) => `module.exports = {
  description: ${JSON.stringify(description)},
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function() { return "ok"; },
};
`;
const GUARD = `module.exports = { beforeToolExecute() {} };\n`;

describe("rienda run setup problems", () => {
  test("two broken tools, a mistyped tool, a mistyped hook and an unknown model are all listed, once each", async () => {
    s = await scenario({ agentFrontmatter: "tools: [wrod-count, half, syntax, shell]\nhooks: [gaurd]" });
    s.inst.agent(
      "coder",
      "---\ndescription: A test agent.\nmodel: p/mm\ntools: [wrod-count, half, syntax, shell]\nhooks: [gaurd]\n---\nx\n",
    );
    s.inst.tool("word-count", TOOL("Counts words."));
    s.inst.tool("half", "module.exports = { description: 'half' };\n");
    s.inst.tool("syntax", "module.exports = {\n");
    s.inst.hook("guard", GUARD);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      'rienda: unknown model "mm" in provider "p" (did you mean "m"? models: m)',
      'rienda: unknown tool "wrod-count" (available: shell, word-count); did you mean "word-count"?; not loading: half, syntax',
      expect.stringMatching(/^rienda: tool "half": missing .*"execute".*\(.*\/tools\/half\/index\.js\)$/),
      expect.stringMatching(/^rienda: tool "syntax": cannot load index\.js: .*\(.*\/tools\/syntax\/index\.js\)$/),
      'rienda: unknown hook "gaurd" (available: guard); did you mean "guard"?',
    ]);
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toEqual([]);
  });

  test("with --json the one error event carries every problem, and run_end follows", async () => {
    s = await scenario({ agentFrontmatter: "tools: [ghost, phantom]" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hi", "--json"]);
    expect(r.code).toBe(1);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message?: string });
    expect(events.map((e) => e.type)).toEqual(["run_start", "error", "run_end"]);
    expect(events[1]!.message).toBe(
      'unknown tool "ghost" (available: shell)\nunknown tool "phantom" (available: shell)',
    );
  });

  test("a workspace whose AGENTS.md is a named pipe is refused at once (it used to hang, deaf to Ctrl-C); doctor says so too", async () => {
    s = await scenario();
    const file = join(s.inst.workspace, "AGENTS.md");
    execFileSync("mkfifo", [file]);
    const message = `${file}: is not a regular file (a named pipe); project instructions are read from plain files only`;
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { killAfterMs: 10_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`rienda: ${message}\n`);
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
    const doctor = await s.inst.run(["doctor"], { killAfterMs: 10_000 });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(message);
  });

  test("a broken config and a broken agent are reported together", async () => {
    s = await scenario();
    s.inst.config("providers:\n  p:\n    preset: opnai\n    models: { m: {} }\n");
    s.inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\ntols: [shell]\n---\nx\n");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('providers.p.preset: unknown preset "opnai" (did you mean "openai"? known presets:');
    expect(r.stderr).toContain('unknown key "tols" in the frontmatter');
  });

  test("a mistyped agent, model or provider gets the closest name", async () => {
    s = await scenario();
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\n---\nx\n");
    const agent = await s.inst.run(["run", "-a", "reveiwer", "-p", "hi"]);
    expect(agent.stderr).toBe(
      'rienda: unknown agent "reveiwer" (did you mean "reviewer"? available: coder, reviewer)\n',
    );
    const provider = await s.inst.run(["run", "-a", "coder", "-m", "q/m", "-p", "hi"]);
    expect(provider.stderr).toContain('rienda: unknown provider "q" (did you mean "p"? providers in');
    const model = await s.inst.run(["run", "-a", "coder", "-m", "p/mm", "-p", "hi"]);
    expect(model.stderr).toBe('rienda: unknown model "mm" in provider "p" (did you mean "m"? models: m)\n');
  });
});
