/**
 * Agent Skills (docs/skills.md): folders `~/.rienda/skills/<name>` holding a
 * SKILL.md in the open Agent Skills format, the section of the system prompt
 * that lists an agent's skills, and the built-in `skill` tool that reads them.
 *
 * Also the Go Rienda's workspace skills (`<workspace>/.agents/skills`,
 * go-current.md §9), offered as a catalog the model reads with its own tools.
 *
 * Invariants: the skills of the `skill` tool are read from HOME only; the
 * `skill` tool never returns anything outside the skill's folder (symbolic
 * links included); one broken skill never hides the others in a listing,
 * and every failure names its file. Runs nothing a skill contains.
 */
export { listSkills, readSkill, type SkillOutcome } from "./list-skills.ts";
export { loadSkills } from "./load-skills.ts";
export { parseSkill } from "./parse-skill.ts";
export {
  listSkillFiles,
  MAX_LISTED_FILES,
  readSkillFile,
  type SkillFileList,
  type SkillFileRead,
} from "./skill-files.ts";
export { createSkillTool } from "./skill-tool.ts";
export { SKILL_FILE, skillsDir } from "./skills-dir.ts";
export { SKILLS_PROMPT_HEADING, skillsPrompt, withSkills } from "./skills-prompt.ts";
export {
  findWorkspaceSkills,
  WORKSPACE_SKILLS_DIR,
  workspaceSkillsPrompt,
  type WorkspaceSkill,
  type WorkspaceSkills,
} from "./workspace-skills.ts";
export type { Skill, SkillList, SkillProblem } from "./types.ts";
