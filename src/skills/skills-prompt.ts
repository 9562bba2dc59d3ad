/** Progressive disclosure: the system prompt names each skill and says what it is for, nothing more. */
import type { Skill } from "./types.ts";

/** What comes before the list of skills in the system prompt. */
export const SKILLS_PROMPT_HEADING = "# Skills";

/**
 * The section listing the agent's skills (name and description, one line
 * each, in the agent's order), or "" when it declares none. The body of each
 * skill stays out of the prompt until the model asks for it with `skill`.
 */
export function skillsPrompt(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return [
    SKILLS_PROMPT_HEADING,
    "",
    "Skills hold instructions and files for particular tasks. When a task matches a skill's description, call the `skill` tool with its name " +
      "before starting, and follow what it returns; read the files it points to with the same tool and `file`.",
    "",
    ...skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, " ")}`),
  ].join("\n");
}

/** The agent's body followed by its skills section (a blank line between), either part possibly empty. */
export function withSkills(body: string, skills: readonly Skill[]): string {
  return [body.trim(), skillsPrompt(skills)].filter((part) => part !== "").join("\n\n");
}
