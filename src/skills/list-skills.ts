/** Reading skill folders: one by name for a run, or every one for listings and the doctor. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isRiendaError, messageOf } from "../errors.ts";
import { parseSkill } from "./parse-skill.ts";
import { SKILL_FILE, skillsDir } from "./skills-dir.ts";
import type { Skill, SkillList, SkillProblem } from "./types.ts";

/** One skill folder read: the skill, or what is wrong with it; undefined when the folder does not exist. */
export type SkillOutcome = { ok: true; skill: Skill } | { ok: false; problem: SkillProblem } | undefined;

/** Reads `~/.rienda/skills/<name>`. Never throws. */
export function readSkill(home: string, name: string): SkillOutcome {
  const dir = join(skillsDir(home), name);
  try {
    if (!statSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const file = join(dir, SKILL_FILE);
  let text: string;
  try {
    // A pipe or device named SKILL.md would block the start of every run.
    const kind = statSync(file);
    if (!kind.isFile() && !kind.isDirectory())
      return broken(name, file, `${file}: is not a regular file (a pipe, socket or device)`);
    text = readFileSync(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      return broken(name, dir, `${dir}: has no ${SKILL_FILE} (a skill is a folder holding a ${SKILL_FILE})`);
    const why =
      code === "EISDIR"
        ? "is a directory, not a file"
        : code === "EACCES"
          ? "cannot be read: permission denied"
          : `cannot be read: ${messageOf(cause)}`;
    return broken(name, file, `${file}: ${why}`);
  }
  try {
    return { ok: true, skill: parseSkill(name, dir, file, text) };
  } catch (error) {
    return broken(name, file, isRiendaError(error) ? error.message : `${file}: ${messageOf(error)}`);
  }
}

/**
 * Every folder of `~/.rienda/skills` (symbolic links followed; hidden entries
 * and plain files skipped). A missing directory is an empty list. Never
 * throws: a broken skill is a problem entry and hides nothing else.
 */
export function listSkills(home: string): SkillList {
  const dir = skillsDir(home);
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push({ name: "", file: dir, message: `${dir}: cannot be listed: ${messageOf(cause)}` });
    return { skills, problems };
  }
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const outcome = readSkill(home, name);
    if (outcome === undefined) continue;
    if (outcome.ok) skills.push(outcome.skill);
    else problems.push(outcome.problem);
  }
  return { skills, problems };
}

function broken(name: string, file: string, message: string): SkillOutcome {
  return { ok: false, problem: { name, file, message } };
}
