/**
 * The built-in `skill` tool, given to an agent that declares skills: with a
 * name it returns the skill's instructions (the body of SKILL.md) and the
 * list of its other files; with `file` too, the text of that one file.
 * It is an ordinary tool to the run: hooks see and may gate its calls.
 */
import { SKILL_TOOL_NAME } from "../agents/index.ts";
import type { Tool, ToolResult } from "../tools/index.ts";
import { listSkillFiles, readSkillFile } from "./skill-files.ts";
import type { Skill } from "./types.ts";

/** Creates the `skill` tool for these skills (the agent's, in its order). */
export function createSkillTool(skills: readonly Skill[]): Tool {
  const byName = new Map(skills.map((s) => [s.name, s]));
  const names = skills.map((s) => s.name);
  return {
    name: SKILL_TOOL_NAME,
    description:
      "Loads one of the skills listed in the system prompt. With only `name`, returns the skill's instructions and the list of its files; " +
      "with `file` too, returns the text of that file of the skill (a path relative to the skill's folder, as the instructions name it).",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", enum: names, description: "The skill's name, as listed in the system prompt." },
        file: {
          type: "string",
          description:
            "A file of the skill, relative to its folder (e.g. references/guide.md). Leave out to get the instructions.",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    source: "built-in",
    builtIn: true,
    async execute(args): Promise<ToolResult> {
      const name = String(args.name);
      const skill = byName.get(name);
      if (!skill) return { text: `unknown skill "${name}" (this agent's skills: ${names.join(", ")})`, isError: true };
      if (typeof args.file === "string") {
        const read = readSkillFile(skill.dir, args.file);
        return read.ok ? { text: read.text, isError: false } : { text: read.message, isError: true };
      }
      return { text: instructions(skill), isError: false };
    },
  };
}

/** The body of SKILL.md, then where the skill lives and what else it holds. */
function instructions(skill: Skill): string {
  const { files, more, cut } = listSkillFiles(skill.dir);
  const lines = [
    skill.body === "" ? "(SKILL.md has no instructions besides its description)" : skill.body,
    "",
    "---",
    `Skill folder: ${skill.dir}`,
  ];
  if (files.length === 0) lines.push("The skill has no other files.");
  else {
    lines.push(`Other files of the skill (read one with {"name": ${JSON.stringify(skill.name)}, "file": "<path>"}):`);
    lines.push(...files.map((f) => `- ${f}`));
    if (more > 0 || cut) lines.push(`- ... and ${cut ? "at least " : ""}${more} more`);
  }
  return lines.join("\n");
}
