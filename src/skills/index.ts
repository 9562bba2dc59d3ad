/**
 * Agent Skills (docs/skills.md): folders `~/.rienda/skills/<name>` holding a
 * SKILL.md in the open Agent Skills format, the section of the system prompt
 * that lists an agent's skills, and the built-in `skill` tool that reads them.
 *
 * Invariants: skills are read from HOME only, never from a workspace; the
 * `skill` tool never returns anything outside the skill's folder (symbolic
 * links included); one broken skill never hides the others in a listing,
 * and every failure names its file. Runs nothing a skill contains.
 */
export { listSkills, readSkill, type SkillOutcome } from "./list-skills.ts";
export { loadSkills } from "./load-skills.ts";
export { parseSkill } from "./parse-skill.ts";
export { listSkillFiles, MAX_LISTED_FILES, readSkillFile, type SkillFileList, type SkillFileRead } from "./skill-files.ts";
export { createSkillTool } from "./skill-tool.ts";
export { SKILL_FILE, skillsDir } from "./skills-dir.ts";
export { SKILLS_PROMPT_HEADING, skillsPrompt, withSkills } from "./skills-prompt.ts";
export type { Skill, SkillList, SkillProblem } from "./types.ts";
