import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSkillTool, listSkillFiles, listSkills, loadSkills, readSkillFile } from "../../src/skills/index.ts";
import { RESULT_CAP_BYTES, type ToolCallContext } from "../../src/tools/index.ts";

let home: string;
let dir: string;
const write = (path: string, text: string | Uint8Array) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "rienda-skills-"));
  dir = join(home, ".rienda", "skills", "pdf");
  write(join(dir, "SKILL.md"), "---\nname: pdf\ndescription: Reads PDFs.\n---\nRead references/guide.md first.\n");
  write(join(dir, "references", "guide.md"), "# Guide\nstep one\n");
  write(join(dir, "scripts", "extract.sh"), "#!/bin/sh\n");
  write(join(dir, ".hidden"), "no");
  write(join(home, "secret.txt"), "top secret");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("listSkillFiles", () => {
  test("lists every file but SKILL.md and hidden ones, relative and sorted", () => {
    expect(listSkillFiles(dir)).toEqual({ files: ["references/guide.md", "scripts/extract.sh"], more: 0 });
  });

  test("lists a link to a file inside the folder, not one leading out of it", () => {
    symlinkSync(join(dir, "references", "guide.md"), join(dir, "guide-link.md"));
    symlinkSync(join(home, "secret.txt"), join(dir, "secret-link.txt"));
    expect(listSkillFiles(dir).files).toEqual(["guide-link.md", "references/guide.md", "scripts/extract.sh"]);
  });
});

describe("listSkillFiles of a heavy skill", () => {
  test("a folder of thousands of files (a dependency tree) is walked only so far, and the listing says so", async () => {
    for (let d = 0; d < 60; d++) {
      mkdirSync(join(dir, "scripts", "node_modules", `p${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(dir, "scripts", "node_modules", `p${d}`, `f${f}.js`), "");
    }
    const listed = listSkillFiles(dir);
    expect(listed.files).toHaveLength(200);
    expect(listed.cut).toBe(true);
    expect(listed.more).toBeGreaterThan(0);
    expect(listed.more).toBeLessThan(6000 - 200);
    const tool = createSkillTool(loadSkills(home, ["pdf"]));
    const body = await tool.execute({ name: "pdf" }, { signal: new AbortController().signal } as ToolCallContext);
    expect(body.text).toEndWith(`\n- ... and at least ${listed.more} more`);
  });
});

describe("readSkillFile", () => {
  test("reads a file inside the folder", () => {
    expect(readSkillFile(dir, "references/guide.md")).toEqual({ ok: true, text: "# Guide\nstep one\n" });
    expect(readSkillFile(dir, "./references/../references/guide.md")).toEqual({
      ok: true,
      text: "# Guide\nstep one\n",
    });
  });

  test("refuses absolute paths, paths out of the folder and links leading out", () => {
    symlinkSync(join(home, "secret.txt"), join(dir, "secret-link.txt"));
    symlinkSync(home, join(dir, "up"));
    const refused = (path: string) => {
      const read = readSkillFile(dir, path);
      expect(read.ok).toBe(false);
      return read.ok ? "" : read.message;
    };
    expect(refused(join(home, "secret.txt"))).toContain("is an absolute path");
    expect(refused("../../../secret.txt")).toBe(
      'file "../../../secret.txt" is outside the skill folder: only files inside it can be read',
    );
    expect(refused("secret-link.txt")).toBe(
      'file "secret-link.txt" is a link to a place outside the skill folder: only files inside it can be read',
    );
    expect(refused("up/secret.txt")).toContain("is a link to a place outside the skill folder");
  });

  test("a missing file, a directory and a binary file are errors that help", () => {
    write(join(dir, "assets", "logo.png"), new Uint8Array([137, 80, 78, 71, 0, 1]));
    const message = (path: string) => {
      const read = readSkillFile(dir, path);
      return read.ok ? "" : read.message;
    };
    expect(message("reference.md")).toBe(
      'the skill has no file "reference.md" (files: assets/logo.png, references/guide.md, scripts/extract.sh)',
    );
    expect(message("references")).toBe('"references" is a directory, not a file (files: references/guide.md)');
    expect(message("assets/logo.png")).toBe(
      'file "assets/logo.png" is binary (6 bytes), not text; it can be used where it is, with the path the skill gives',
    );
  });

  test("a NUL byte, a pipe and a file larger than a tool result are refused with messages for the model", () => {
    const message = (path: string) => {
      const read = readSkillFile(dir, path);
      return read.ok ? "" : read.message;
    };
    expect(message("references/guide.md\0.txt")).toBe(
      'file "references/guide.md\\u0000.txt" contains a NUL character, which no file name can hold: give a path inside the skill folder, like references/guide.md',
    );
    execFileSync("mkfifo", [join(dir, "references", "pipe")]);
    // Reading the pipe would block until a writer came: it is refused without opening it.
    expect(message("references/pipe")).toBe(
      'file "references/pipe" is not a regular file (a pipe, socket or device), so it is not read',
    );
    write(join(dir, "assets", "huge.txt"), "a".repeat(RESULT_CAP_BYTES + 1));
    expect(message("assets/huge.txt")).toBe(
      `file "assets/huge.txt" is ${RESULT_CAP_BYTES + 1} bytes, more than the 256 KiB a tool result holds; it can be used where it is (${realpathSync(join(dir, "assets", "huge.txt"))}), with a tool that reads part of it`,
    );
    write(join(dir, "assets", "just-fits.txt"), "a".repeat(RESULT_CAP_BYTES));
    expect(readSkillFile(dir, "assets/just-fits.txt")).toEqual({ ok: true, text: "a".repeat(RESULT_CAP_BYTES) });
  });

  test("a skill folder that is itself a link is confined to the link's target", () => {
    const real = join(home, "dotfiles", "skills", "notes");
    write(join(real, "SKILL.md"), "---\nname: notes\ndescription: Notes.\n---\nbody\n");
    write(join(real, "a.md"), "inside");
    symlinkSync(real, join(home, ".rienda", "skills", "notes"));
    const [notes] = loadSkills(home, ["notes"]);
    expect(readSkillFile(notes!.dir, "a.md")).toEqual({ ok: true, text: "inside" });
    expect(readSkillFile(notes!.dir, "../../../secret.txt").ok).toBe(false);
  });
});

describe("loadSkills and listSkills", () => {
  test("a missing skill lists the ones that exist; a broken one names its file", () => {
    write(join(home, ".rienda", "skills", "broken", "SKILL.md"), "---\nname: other\ndescription: d\n---\n");
    expect(() => loadSkills(home, ["pdf", "ghost"])).toThrow(
      'unknown skill "ghost" (available: pdf; not loading: broken, see "rienda doctor")',
    );
    expect(() => loadSkills(home, ["pdff"])).toThrow(
      'unknown skill "pdff" (did you mean "pdf"? available: pdf; not loading: broken, see "rienda doctor")',
    );
    expect(() => loadSkills(home, ["broken"])).toThrow(
      `${join(home, ".rienda", "skills", "broken", "SKILL.md")}: name: "other" must equal the folder's name "broken"`,
    );
    const list = listSkills(home);
    expect(list.skills.map((s) => s.name)).toEqual(["pdf"]);
    expect(list.problems.map((p) => p.name)).toEqual(["broken"]);
  });

  test("a SKILL.md that is a pipe is a broken skill, not a run that hangs", () => {
    const fifo = join(home, ".rienda", "skills", "piped");
    mkdirSync(fifo);
    execFileSync("mkfifo", [join(fifo, "SKILL.md")]);
    expect(() => loadSkills(home, ["piped"])).toThrow(
      `${join(fifo, "SKILL.md")}: is not a regular file (a pipe, socket or device)`,
    );
    expect(listSkills(home).problems.map((p) => p.name)).toEqual(["piped"]);
  });

  test("a folder without SKILL.md is a problem; plain files and hidden folders are ignored", () => {
    mkdirSync(join(home, ".rienda", "skills", "empty"));
    mkdirSync(join(home, ".rienda", "skills", ".git"));
    write(join(home, ".rienda", "skills", "README.md"), "my skills");
    const list = listSkills(home);
    expect(list.problems).toEqual([
      {
        name: "empty",
        file: join(home, ".rienda", "skills", "empty"),
        message: `${join(home, ".rienda", "skills", "empty")}: has no SKILL.md (a skill is a folder holding a SKILL.md)`,
      },
    ]);
  });
});

describe("the skill tool", () => {
  const context = { signal: new AbortController().signal } as ToolCallContext;

  test("returns the instructions with the folder and the other files, or one file", async () => {
    const tool = createSkillTool(loadSkills(home, ["pdf"]));
    expect(tool.name).toBe("skill");
    expect((tool.parameters.properties as { name: { enum: string[] } }).name.enum).toEqual(["pdf"]);
    const body = await tool.execute({ name: "pdf" }, context);
    expect(body).toEqual({
      isError: false,
      text: [
        "Read references/guide.md first.",
        "",
        "---",
        `Skill folder: ${dir}`,
        'Other files of the skill (read one with {"name": "pdf", "file": "<path>"}):',
        "- references/guide.md",
        "- scripts/extract.sh",
      ].join("\n"),
    });
    expect(await tool.execute({ name: "pdf", file: "references/guide.md" }, context)).toEqual({
      text: "# Guide\nstep one\n",
      isError: false,
    });
    expect(await tool.execute({ name: "pdf", file: "../../../secret.txt" }, context)).toEqual({
      text: 'file "../../../secret.txt" is outside the skill folder: only files inside it can be read',
      isError: true,
    });
    expect(await tool.execute({ name: "word" }, context)).toEqual({
      text: 'unknown skill "word" (this agent\'s skills: pdf)',
      isError: true,
    });
  });
});
