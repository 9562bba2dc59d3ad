/** The skills an agent declares, loaded before its run. */
import { RiendaError } from "../errors.ts";
import { unknownDefinitionMessage } from "../values.ts";
import { listSkills, readSkill } from "./list-skills.ts";
import { skillsDir } from "./skills-dir.ts";
import type { Skill } from "./types.ts";

/**
 * Loads each named skill, reading only those folders. Throws RiendaError
 * (code "skill") with a line per skill that is missing (listing the ones
 * that exist) or broken (its own problems, naming its file).
 */
export function loadSkills(home: string, names: readonly string[]): Skill[] {
  const skills: Skill[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const outcome = readSkill(home, name);
    if (outcome === undefined) problems.push(unknownSkillMessage(home, name));
    else if (outcome.ok) skills.push(outcome.skill);
    else problems.push(outcome.problem.message);
  }
  if (problems.length > 0) throw new RiendaError("skill", problems.join("\n"));
  return skills;
}

function unknownSkillMessage(home: string, name: string): string {
  const { skills, problems } = listSkills(home);
  const dir = skillsDir(home);
  const broken = [...new Set(problems.map((p) => p.name).filter((p) => p !== ""))];
  const found = { dir, loaded: skills.map((s) => s.name), broken, problems: problems.length };
  return unknownDefinitionMessage(
    "skill",
    name,
    found,
    `: there are no skills in ${dir} yet (a skill is a folder ${dir}/${name} holding a SKILL.md; see docs/skills.md)`,
  );
}
