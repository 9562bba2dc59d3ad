/** The name rule of the Agent Skills format, shared by agent files (`skills:`) and skill folders. */

// Lowercase ASCII letters and digits, in runs joined by single hyphens: no
// leading, trailing or doubled hyphen; 1 to 64 characters.
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The rule in words, for messages. */
export const SKILL_NAME_RULE = "1 to 64 lowercase letters and digits, with single hyphens between them";

/** True when `name` may name a skill. */
export function isValidSkillName(name: string): boolean {
  return SKILL_NAME.test(name);
}

/** The built-in tool that reads skills, given to every agent that declares some (so no tool of the agent's may take its name). */
export const SKILL_TOOL_NAME = "skill";
