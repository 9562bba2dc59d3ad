/** linkOutOfWorkspace: a workspace file never leads out of the workspace (issue 39, item 3). */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { linkOutOfWorkspace, loadProjectInstructions, type OutsideLink } from "../../src/agents/index.ts";

let root = "";
afterEach(() => rmSync(root, { recursive: true, force: true }));

function layout(): { workspace: string; outside: string } {
  root = mkdtempSync(join(tmpdir(), "rienda-links-"));
  const workspace = join(root, "work");
  mkdirSync(join(workspace, "docs"), { recursive: true });
  mkdirSync(join(root, "secret"));
  writeFileSync(join(workspace, "docs", "rules.md"), "rules\n");
  writeFileSync(join(root, "secret", "key"), "SECRET\n");
  return { workspace, outside: join(root, "secret", "key") };
}

describe("linkOutOfWorkspace", () => {
  test("a plain file, a link inside, a missing file and a dangling link stay", () => {
    const { workspace } = layout();
    symlinkSync("docs/rules.md", join(workspace, "inside.md"));
    symlinkSync(join(root, "nowhere"), join(workspace, "dangling.md"));
    for (const name of ["docs/rules.md", "inside.md", "missing.md", "dangling.md"])
      expect(linkOutOfWorkspace(workspace, join(workspace, name))).toBeUndefined();
  });

  test("a link to a file outside, by an absolute or a relative path, leads out, with where", () => {
    const { workspace, outside } = layout();
    symlinkSync(outside, join(workspace, "AGENTS.md"));
    symlinkSync("../secret/key", join(workspace, "CLAUDE.md"));
    expect(linkOutOfWorkspace(workspace, join(workspace, "AGENTS.md"))).toEqual({
      link: join(workspace, "AGENTS.md"),
      target: outside,
    });
    expect(linkOutOfWorkspace(workspace, join(workspace, "CLAUDE.md"))).toEqual({
      link: join(workspace, "CLAUDE.md"),
      target: outside,
    });
  });

  test("a plain file inside a linked folder leads out too (workspace skills: .agents/skills/x/SKILL.md)", () => {
    const { workspace } = layout();
    mkdirSync(join(root, "elsewhere", "x"), { recursive: true });
    writeFileSync(join(root, "elsewhere", "x", "SKILL.md"), "skill\n");
    mkdirSync(join(workspace, ".agents"));
    symlinkSync(join(root, "elsewhere"), join(workspace, ".agents", "skills"));
    const file = join(workspace, ".agents", "skills", "x", "SKILL.md");
    expect(linkOutOfWorkspace(workspace, file)).toEqual({
      link: file,
      target: join(root, "elsewhere", "x", "SKILL.md"),
    });
  });

  test("a workspace reached through a link is itself; a sibling named like it is not inside", () => {
    const { workspace } = layout();
    symlinkSync(workspace, join(root, "via"));
    expect(linkOutOfWorkspace(join(root, "via"), join(root, "via", "docs", "rules.md"))).toBeUndefined();
    mkdirSync(join(root, "work-other"));
    writeFileSync(join(root, "work-other", "x.md"), "x\n");
    symlinkSync("../work-other/x.md", join(workspace, "x.md"));
    expect(linkOutOfWorkspace(workspace, join(workspace, "x.md"))?.target).toBe(join(root, "work-other", "x.md"));
  });
});

describe("loadProjectInstructions", () => {
  test("skips AGENTS.md that leads out, tells onSkipped, and reads CLAUDE.md", () => {
    const { workspace, outside } = layout();
    symlinkSync(outside, join(workspace, "AGENTS.md"));
    writeFileSync(join(workspace, "CLAUDE.md"), "Use tabs.\n");
    const skipped: OutsideLink[] = [];
    expect(loadProjectInstructions(workspace, (found) => skipped.push(found))).toEqual({
      file: join(workspace, "CLAUDE.md"),
      text: "Use tabs.",
    });
    expect(skipped).toEqual([{ link: join(workspace, "AGENTS.md"), target: outside }]);
  });
});
