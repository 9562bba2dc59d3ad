/**
 * Agent Skills end to end: the skills an agent declares are listed in the
 * system prompt of the first request (name and description only), the
 * `skill` tool returns a skill's instructions or one of its files and
 * nothing outside its folder, hooks gate its calls, a missing skill stops
 * the run before any request, and doctor and `rienda skill list` report
 * broken skills. Real public skills written for Claude load unchanged
 * (test/fixtures/skills/ORIGIN.md).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { PROTOCOLS, scenario, systemOf, toolNamesOf, toolResultsOf, type Scenario } from "../support/scenario.ts";

const FIXTURES = resolve(import.meta.dir, "../fixtures/skills");

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Copies the public skills of the fixtures into ~/.rienda/skills, unchanged. */
function installPublicSkills(sc: Scenario): void {
  for (const name of ["brand-guidelines", "theme-factory"])
    cpSync(join(FIXTURES, name), sc.inst.riendaPath("skills", name), { recursive: true });
}

function skill(sc: Scenario, name: string, frontmatter: string, body: string): string {
  return sc.inst.write(sc.inst.riendaPath("skills", name, "SKILL.md"), `---\n${frontmatter}\n---\n${body}`);
}

describe("skills in a run", () => {
  for (const protocol of PROTOCOLS) {
    test(`the first request lists the declared skills and offers the skill tool (${protocol})`, async () => {
      s = await scenario({
        protocol,
        agentFrontmatter: "skills: [theme-factory, brand-guidelines]",
        agentBody: "You style documents.",
      });
      installPublicSkills(s);
      skill(s, "unused", "name: unused\ndescription: Not declared by the agent.", "secret body");
      s.server.script({ text: "done" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "style it"]);
      expect(r.stderr).not.toContain("rienda:");
      expect(r.code).toBe(0);
      const system = systemOf(s.server.requests[0]!);
      expect(system).toStartWith("You style documents.\n\n# Skills\n\n");
      expect(system).toContain("\n- theme-factory: 用于为制品添加主题样式的工具包。");
      expect(system).toContain("\n- brand-guidelines: Applies Anthropic's official brand colors and typography");
      expect(system.indexOf("- theme-factory")).toBeLessThan(system.indexOf("- brand-guidelines"));
      // Progressive disclosure: no body, and nothing of a skill the agent does not declare.
      expect(system).not.toContain("Anthropic Brand Styling");
      expect(system).not.toContain("unused");
      expect(toolNamesOf(s.server.requests[0]!)).toEqual(["skill"]);
    });
  }

  test("skill calls return the instructions with the file list, a file, and refuse a path out of the folder", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nskills: [theme-factory]" });
    installPublicSkills(s);
    s.inst.write(s.inst.riendaPath("secret.txt"), "top secret");
    symlinkSync(s.inst.riendaPath("secret.txt"), s.inst.riendaPath("skills", "theme-factory", "themes", "leak.md"));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "skill", arguments: { name: "theme-factory" } },
          { id: "c2", name: "skill", arguments: { name: "theme-factory", file: "themes/arctic-frost.md" } },
          { id: "c3", name: "skill", arguments: { name: "theme-factory", file: "../../secret.txt" } },
          { id: "c4", name: "skill", arguments: { name: "theme-factory", file: "themes/leak.md" } },
          { id: "c5", name: "skill", arguments: { name: "brand-guidelines" } },
        ],
      },
      { text: "styled" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "style it"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("styled\n");
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["shell", "skill"]);
    const [body, file, outside, link, undeclared] = toolResultsOf(s.server.requests[1]!);
    expect(body).toStartWith("# 主题工厂技能\n\n本技能提供");
    expect(body).toContain(`\n---\nSkill folder: ${s.inst.riendaPath("skills", "theme-factory")}\n`);
    expect(body).toEndWith(
      'Other files of the skill (read one with {"name": "theme-factory", "file": "<path>"}):\n- themes/arctic-frost.md',
    );
    expect(file).toStartWith("# Arctic Frost\n");
    expect(file).toContain("`#4a6fa5`");
    expect(outside).toBe('file "../../secret.txt" is outside the skill folder: only files inside it can be read');
    expect(link).toBe(
      'file "themes/leak.md" is a link to a place outside the skill folder: only files inside it can be read',
    );
    expect(undeclared).toContain('invalid arguments for tool "skill"');
    expect(r.stderr).toContain('tool: skill {"name":"theme-factory"}\n');
    expect(r.stderr).toContain('tool failed: file "../../secret.txt" is outside the skill folder');
    expect(r.stderr).not.toContain("top secret");
  });

  test("a skill written for Claude Code, Codex and Aider, with every optional key, loads unchanged", async () => {
    const name = "web-research-and-source-triage";
    s = await scenario({ agentFrontmatter: `skills: [${name}]` });
    cpSync(join(FIXTURES, name), s.inst.riendaPath("skills", name), { recursive: true });
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "skill", arguments: { name } },
          { id: "b", name: "skill", arguments: { name, file: "reference.md" } },
        ],
      },
      { text: "checked" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "is it true?"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).toContain(
      `\n- ${name}: Use when gathering current web evidence, comparing sources,`,
    );
    const [body, reference] = toolResultsOf(s.server.requests[1]!);
    expect(body).toStartWith("# Web Research And Source Triage\n\n(Body replaced for the test:");
    expect(body).toEndWith(`{"name": "${name}", "file": "<path>"}):\n- reference.md`);
    expect(reference).toBe("# Reference\n\n(Replaced for the test.)\n");
    const listed = JSON.parse((await s.inst.run(["skill", "list", "--json"])).stdout) as {
      skills: Record<string, unknown>[];
      problems: unknown[];
    };
    expect(listed.problems).toEqual([]);
    expect(listed.skills[0]).toMatchObject({
      name,
      license: "MIT",
      compatibility: "Tested with Claude Code, Codex, and Aider skill layouts",
      allowedTools: ["Read", "Glob", "Grep", "WebFetch", "WebSearch"],
      metadata: expect.objectContaining({ "agtmls-version": "0.0.4", "agtmls-requires-human-review": "true" }),
    });
    const doctor = await s.inst.run(["doctor"]);
    expect(doctor.stdout).toEndWith("healthy\n");
  });

  test("a skill with Claude Code's own keys loads unchanged: the keys are ignored, listed, and a doctor warning", async () => {
    s = await scenario({ agentFrontmatter: "skills: [fix-issue]" });
    const file = skill(
      s,
      "fix-issue",
      "name: fix-issue\ndescription: Fixes a GitHub issue by number.\nargument-hint: '[issue-number]'\ndisable-model-invocation: true\nmodel: sonnet\nversion: 1.0.0",
      "Read the issue, then fix it.\n",
    );
    s.server.script({ toolCalls: [{ id: "a", name: "skill", arguments: { name: "fix-issue" } }] }, { text: "fixed" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "fix 12"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).toContain("\n- fix-issue: Fixes a GitHub issue by number.");
    expect(toolResultsOf(s.server.requests[1]!)[0]).toStartWith("Read the issue, then fix it.");
    const listed = JSON.parse((await s.inst.run(["skill", "list", "--json"])).stdout) as {
      skills: Record<string, unknown>[];
    };
    expect(listed.skills[0]).toMatchObject({
      name: "fix-issue",
      ignoredKeys: ["argument-hint", "disable-model-invocation", "model", "version"],
    });
    const doctor = await s.inst.run(["doctor"]);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain(
      `warning: ${file}: model: a key other harnesses use (Claude Code), outside the Agent Skills format; Rienda ignores it\n`,
    );
    expect(doctor.stdout).toEndWith("healthy (4 warnings)\n");
  });

  test("a NUL byte, a pipe, a file too large and a way out of a linked skill folder are refused; the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "skills: [notes]" });
    // The skill folder is a link (to a dotfiles checkout, say): inside means inside its target.
    const real = s.inst.riendaPath("dotfiles", "notes");
    s.inst.write(join(real, "SKILL.md"), "---\nname: notes\ndescription: Notes.\n---\nRead guide.md.\n");
    s.inst.write(join(real, "guide.md"), "the guide");
    s.inst.write(join(real, "big.txt"), "x".repeat(256 * 1024 + 1));
    s.inst.write(s.inst.riendaPath("dotfiles", "secret.txt"), "top secret");
    execFileSync("mkfifo", [join(real, "pipe")]);
    mkdirSync(s.inst.riendaPath("skills"), { recursive: true });
    symlinkSync(real, s.inst.riendaPath("skills", "notes"));
    const calls = ["guide.md", "guide.md\0", "pipe", "big.txt", "../secret.txt"].map((file, i) => ({
      id: `c${i}`,
      name: "skill",
      arguments: { name: "notes", file },
    }));
    s.server.script({ toolCalls: calls }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      "the guide",
      'file "guide.md\\u0000" contains a NUL character, which no file name can hold: give a path inside the skill folder, like references/guide.md',
      'file "pipe" is not a regular file (a pipe, socket or device), so it is not read',
      `file "big.txt" is ${256 * 1024 + 1} bytes, more than the 256 KiB a tool result holds; it can be used where it is (${realpathSync(join(real, "big.txt"))}), with a tool that reads part of it`,
      'file "../secret.txt" is outside the skill folder: only files inside it can be read',
    ]);
    expect(r.stderr).not.toContain("top secret");
  });

  test("hooks see skill calls and may refuse them", async () => {
    s = await scenario({ agentFrontmatter: "skills: [brand-guidelines]\nhooks: [no-files]" });
    installPublicSkills(s);
    s.inst.hook(
      "no-files",
      `module.exports = { beforeToolExecute(ctx, call) { if (call.name === "skill" && call.arguments.file) return { allow: false, reason: "skill files are off" }; } };`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "skill", arguments: { name: "brand-guidelines", file: "SKILL.md" } },
          { id: "b", name: "skill", arguments: { name: "brand-guidelines" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const [refused, allowed] = toolResultsOf(s.server.requests[1]!);
    expect(refused).toBe("skill files are off");
    expect(allowed).toStartWith("# Anthropic Brand Styling");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toContainEqual({
      type: "hook",
      name: "no-files",
      point: "beforeToolExecute",
      outcome: "refused",
      message: "skill files are off",
    });
  });

  test("a missing skill stops the run before any request, listing the skills that exist", async () => {
    s = await scenario({ agentFrontmatter: "skills: [brand-guidelines, pdf]" });
    installPublicSkills(s);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('rienda: unknown skill "pdf" (available: brand-guidelines, theme-factory)\n');
    expect(s.server.requests).toEqual([]);
  });

  test("a broken skill stops the run, naming its file; an invalid name in skills: is an agent error", async () => {
    s = await scenario({ agentFrontmatter: "skills: [notes]" });
    const file = skill(s, "notes", "name: notes\ndescription: Notes.\ntemperature: 2", "body");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `rienda: ${file}: unknown key "temperature" in the frontmatter (known keys: name, description, license, compatibility, metadata, allowed-tools)\n`,
    );
    s.inst.agent("coder", "---\ndescription: d\nmodel: p/m\nskills: [Notes]\n---\n");
    const bad = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(bad.stderr).toContain('skills[0]: "Notes" is not a valid skill name');
    expect(s.server.requests).toEqual([]);
  });

  test("skills are never read from the workspace", async () => {
    s = await scenario({ agentFrontmatter: "skills: [local]" });
    s.inst.file(".rienda/skills/local/SKILL.md", "---\nname: local\ndescription: From the repository.\n---\nbody\n");
    s.inst.file("skills/local/SKILL.md", "---\nname: local\ndescription: From the repository.\n---\nbody\n");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown skill "local": there are no skills in');
    expect(s.server.requests).toEqual([]);
  });
});

describe("rienda skill list and doctor", () => {
  test("skill list prints each skill with its description and folder, and broken ones on stderr", async () => {
    s = await scenario();
    installPublicSkills(s);
    mkdirSync(s.inst.riendaPath("skills", "empty"));
    const r = await s.inst.run(["skill", "list"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toStartWith(`brand-guidelines\n    Applies Anthropic's official brand colors`);
    expect(r.stdout).toContain(`    source: ${s.inst.riendaPath("skills", "brand-guidelines")}\ntheme-factory\n`);
    expect(r.stderr).toBe(
      `rienda: ${s.inst.riendaPath("skills", "empty")}: has no SKILL.md (a skill is a folder holding a SKILL.md)\n`,
    );
    const json = await s.inst.run(["skill", "list", "--json"]);
    const parsed = JSON.parse(json.stdout) as {
      skills: { name: string; license?: string }[];
      problems: { name: string }[];
    };
    expect(parsed.skills.map((k) => [k.name, k.license])).toEqual([
      ["brand-guidelines", "Complete terms in LICENSE.txt"],
      ["theme-factory", "Complete terms in LICENSE.txt"],
    ]);
    expect(parsed.problems.map((p) => p.name)).toEqual(["empty"]);
  });

  test("doctor reports every broken skill with its file, and an agent naming a missing one", async () => {
    s = await scenario({ agentFrontmatter: "skills: [brand-guidelines, ghost, wrong]" });
    installPublicSkills(s);
    const wrong = skill(s, "wrong", "name: right\ndescription: d", "");
    const long = skill(s, "long", `name: long\ndescription: ${"x".repeat(1100)}`, "");
    const r = await s.inst.run(["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("skills        brand-guidelines, theme-factory (and 2 that do not load)\n");
    expect(r.stdout).toContain(
      `problem: ${wrong}: name: "right" must equal the folder's name "wrong"\n  fix: rename the folder or change name:`,
    );
    expect(r.stdout).toContain(`problem: ${long}: description: must be at most 1024 characters (it has 1100)\n`);
    const agent = s.inst.riendaPath("agents", "coder.md");
    expect(r.stdout).toContain(
      `problem: ${agent}: skills[1]: unknown skill "ghost" (available: brand-guidelines, theme-factory)\n`,
    );
    expect(r.stdout).toContain(`problem: ${agent}: skills[2]: skill "wrong" does not load (${wrong})\n`);
    expect(r.stdout).toEndWith("4 problems, 0 warnings\n");
  });

  test("an agent with skills that also lists a tool named skill: run refuses it before any request, and doctor names it with a fix", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, skill]\nskills: [theme-factory]" });
    installPublicSkills(s);
    const agent = s.inst.riendaPath("agents", "coder.md");
    const message =
      'tools: "skill" is the built-in tool of skills, given to every agent that declares skills; remove it from tools:';
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`rienda: ${agent}: ${message}\n`);
    expect(s.server.requests.length).toBe(0);
    const doctor = await s.inst.run(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `problem: ${agent}: ${message}\n  fix: remove "skill" from tools: (an agent with skills gets the skill tool from them)\n`,
    );
  });

  test("doctor is healthy with the public skills installed and declared", async () => {
    s = await scenario({ agentFrontmatter: "skills: [brand-guidelines, theme-factory]" });
    installPublicSkills(s);
    const r = await s.inst.run(["doctor"]);
    expect(r.stdout).toContain("skills        brand-guidelines, theme-factory\n");
    expect(r.stdout).toEndWith("healthy\n");
    expect(r.code).toBe(0);
  });
});
