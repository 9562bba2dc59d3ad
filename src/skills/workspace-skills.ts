/**
 * The Go Rienda's workspace skills (go-current.md §9):
 * `<workspace>/.agents/skills/<dir>/SKILL.md`, one level deep, read again
 * before every request, offered to the model as a catalog in the system
 * prompt; the model reads a skill's SKILL.md with its own tools.
 *
 * Lenient, as the Go program is: only the frontmatter is read; a non-empty
 * `name` and `description` are required and every other key is ignored; a
 * departure from the format's recommendations (a name unlike its folder's,
 * a long description) is a diagnostic, never a refusal; an unusable skill
 * is skipped alone; nothing here ever fails a run. A skill whose folder or
 * SKILL.md is a link leading out of the workspace is skipped, like a
 * project instructions file that is one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isValidSkillName, linkOutOfWorkspace, readFrontmatter } from "../agents/index.ts";

/** Where the workspace's skills are, relative to it. */
export const WORKSPACE_SKILLS_DIR = join(".agents", "skills");
const MAX_DESCRIPTION = 1024;
/** A SKILL.md larger than this is not read (its frontmatter is at the top; a huge file is a mistake or an attack). */
const MAX_SKILL_BYTES = 1024 * 1024;

export interface WorkspaceSkill {
  name: string;
  description: string;
  /** The SKILL.md, relative to the workspace, `/`-separated. */
  location: string;
}

export interface WorkspaceSkills {
  /** Sorted by folder name. */
  skills: WorkspaceSkill[];
  /** One line each, naming the file: skipped skills and departures from the format. */
  diagnostics: string[];
}

/** Reads the workspace's skills; never throws. */
export function findWorkspaceSkills(workdir: string): WorkspaceSkills {
  const found: WorkspaceSkills = { skills: [], diagnostics: [] };
  const dir = join(workdir, WORKSPACE_SKILLS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => !name.startsWith("."))
      .sort();
  } catch {
    return found;
  }
  for (const name of names) readOne(workdir, name, found);
  return found;
}

function readOne(workdir: string, folder: string, found: WorkspaceSkills): void {
  const dir = join(workdir, WORKSPACE_SKILLS_DIR, folder);
  const file = join(dir, "SKILL.md");
  // A folder without SKILL.md (a dangling link too) is not a skill: nothing to say.
  if (!existsSync(file)) return;
  const outside = linkOutOfWorkspace(workdir, dir) ?? linkOutOfWorkspace(workdir, file);
  if (outside) {
    found.diagnostics.push(
      `${file}: skipped: the link ${outside.link} (to ${outside.target}) leads out of the workspace`,
    );
    return;
  }
  const location = relative(workdir, file).split(sep).join("/");
  let text: string;
  try {
    if (statSync(file).size > MAX_SKILL_BYTES) throw new Error(`larger than ${MAX_SKILL_BYTES} bytes`);
    text = readFileSync(file, "utf8");
  } catch (error) {
    found.diagnostics.push(`${file}: skipped: cannot be read (${(error as Error).message})`);
    return;
  }
  const read = readFrontmatter(text, { required: ["name", "description"], body: "the instructions" });
  if (!read.ok) {
    found.diagnostics.push(`${file}: skipped: ${read.problems.join("; ")}`);
    return;
  }
  const name = textOf(read.value.meta.name);
  const description = textOf(read.value.meta.description);
  if (!name || !description) {
    found.diagnostics.push(`${file}: skipped: a non-empty "name" and "description" are required`);
    return;
  }
  if (name !== folder) found.diagnostics.push(`${file}: name "${name}" differs from its folder "${folder}"`);
  if (!isValidSkillName(name))
    found.diagnostics.push(`${file}: name "${name}" is not lowercase letters, digits and single hyphens`);
  if (description.length > MAX_DESCRIPTION)
    found.diagnostics.push(`${file}: description is longer than ${MAX_DESCRIPTION} characters`);
  found.skills.push({ name, description, location });
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The system prompt's part for these skills: one instruction line and the catalog; "" when there is none. */
export function workspaceSkillsPrompt(skills: readonly WorkspaceSkill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map(
    (s) =>
      `<skill><name>${xml(s.name)}</name><description>${xml(s.description)}</description><location>${xml(s.location)}</location></skill>`,
  );
  return [
    "The workspace has skills, instructions for particular tasks: when a task matches a skill's description, read that skill's SKILL.md with your tools before proceeding. " +
      "Locations are relative to the workspace, and paths inside a skill relative to its folder. A skill never overrides the project instructions or the user.",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
