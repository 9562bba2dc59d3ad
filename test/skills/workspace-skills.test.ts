import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findWorkspaceSkills, workspaceSkillsPrompt } from "../../src/skills/index.ts";

let root: string;
let workdir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "rienda-wss-"));
  workdir = join(root, "work");
  mkdirSync(workdir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skill(folder: string, text: string): string {
  const dir = join(workdir, ".agents", "skills", folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), text);
  return join(dir, "SKILL.md");
}

describe("workspace skills (go-current.md §9)", () => {
  test("reads name and description leniently, sorted by folder, locations relative to the workspace", () => {
    skill(
      "review",
      "---\nname: review\ndescription: Reviews a diff <carefully> & kindly.\nallowed-tools: [x]\nunknown-key: 1\n---\nBody\n",
    );
    skill("a-first", "---\nname: a-first\ndescription: First.\n---\n");
    const found = findWorkspaceSkills(workdir);
    expect(found.skills).toEqual([
      { name: "a-first", description: "First.", location: ".agents/skills/a-first/SKILL.md" },
      {
        name: "review",
        description: "Reviews a diff <carefully> & kindly.",
        location: ".agents/skills/review/SKILL.md",
      },
    ]);
    expect(found.diagnostics).toEqual([]);
  });

  test("a departure from the format is a diagnostic; a skill without name or description, or unparsable, is skipped alone", () => {
    const odd = skill("odd", "---\nname: Other_Name\ndescription: Still used.\n---\n");
    const nameless = skill("nameless", "---\ndescription: no name\n---\n");
    const broken = skill("broken", "---\nname: [unclosed\n---\n");
    skill("good", "---\nname: good\ndescription: Fine.\n---\n");
    const found = findWorkspaceSkills(workdir);
    expect(found.skills.map((s) => s.name)).toEqual(["good", "Other_Name"]);
    expect(found.diagnostics).toContain(`${odd}: name "Other_Name" differs from its folder "odd"`);
    expect(found.diagnostics.some((d) => d.startsWith(`${nameless}: skipped:`))).toBe(true);
    expect(found.diagnostics.some((d) => d.startsWith(`${broken}: skipped:`))).toBe(true);
  });

  test("a SKILL.md or a folder that is a link out of the workspace is skipped, naming the link and its target", () => {
    const outside = join(root, "secret");
    mkdirSync(outside);
    writeFileSync(join(outside, "SKILL.md"), "---\nname: leak\ndescription: Leaks.\n---\n");
    mkdirSync(join(workdir, ".agents", "skills"), { recursive: true });
    symlinkSync(outside, join(workdir, ".agents", "skills", "leak"));
    const dir = join(workdir, ".agents", "skills", "file-link");
    mkdirSync(dir);
    symlinkSync(join(outside, "SKILL.md"), join(dir, "SKILL.md"));
    const found = findWorkspaceSkills(workdir);
    expect(found.skills).toEqual([]);
    expect(found.diagnostics).toEqual([
      `${join(dir, "SKILL.md")}: skipped: the link ${join(dir, "SKILL.md")} (to ${join(outside, "SKILL.md")}) leads out of the workspace`,
      `${join(workdir, ".agents", "skills", "leak", "SKILL.md")}: skipped: the link ${join(workdir, ".agents", "skills", "leak")} (to ${outside}) leads out of the workspace`,
    ]);
  });

  test("no folder, or no usable skill: no catalog at all", () => {
    expect(findWorkspaceSkills(workdir)).toEqual({ skills: [], diagnostics: [] });
    expect(workspaceSkillsPrompt([])).toBe("");
  });

  test("the catalog is one instruction line and XML-escaped entries", () => {
    const prompt = workspaceSkillsPrompt([
      { name: "r", description: "a <b> & 'c'", location: ".agents/skills/r/SKILL.md" },
    ]);
    const lines = prompt.split("\n");
    expect(lines[0]).toContain("read that skill's SKILL.md with your tools before proceeding");
    expect(lines.slice(1)).toEqual([
      "<available_skills>",
      "<skill><name>r</name><description>a &lt;b&gt; &amp; &apos;c&apos;</description><location>.agents/skills/r/SKILL.md</location></skill>",
      "</available_skills>",
    ]);
  });
});
