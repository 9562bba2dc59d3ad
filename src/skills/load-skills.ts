/** The skills an agent declares, loaded before its run. */
import { RiendaError } from "../errors.ts";
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
  const broken = problems.length > 0 ? `; ${problems.length} more cannot be loaded, see "rienda doctor"` : "";
  if (skills.length > 0) return `unknown skill "${name}" (available: ${skills.map((s) => s.name).join(", ")}${broken})`;
  if (problems.length > 0) return `unknown skill "${name}" (no skill in ${dir} loads; see "rienda doctor")`;
  return `unknown skill "${name}": there are no skills in ${dir} yet (a skill is a folder ${dir}/${name} holding a SKILL.md; see docs/skills.md)`;
}
