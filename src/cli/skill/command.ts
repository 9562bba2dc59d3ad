/**
 * `rienda skill list`: the skills of ~/.rienda/skills, each with its
 * description and folder; a broken skill is reported on stderr with its
 * file and the command exits 1, after listing every skill that loads.
 */
import { defineCommand } from "../shared/command.ts";
import { listSkills } from "../../skills/index.ts";
import { homeDir } from "../shared/home-dir.ts";
import { stderrForPeople, stdoutForPeople } from "../shared/for-people.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";

const listArgs = {
  json: { type: "boolean", description: "Print one JSON object { skills, problems }" },
} as const;

const list = defineCommand({
  meta: { name: "list", description: "List every skill, its description and its folder." },
  args: listArgs,
  async run(line) {
    const { skills, problems } = listSkills(homeDir());
    if (line.values.json) {
      const shown = skills.map((s) => ({
        name: s.name,
        description: s.description,
        dir: s.dir,
        file: s.file,
        ...(s.license !== undefined ? { license: s.license } : {}),
        ...(s.compatibility !== undefined ? { compatibility: s.compatibility } : {}),
        metadata: s.metadata,
        allowedTools: s.allowedTools,
        ignoredKeys: s.ignoredKeys,
      }));
      process.stdout.write(
        `${jsonWithControlsEscaped(JSON.stringify({ skills: shown, problems: problems.map((p) => ({ name: p.name, file: p.file, message: p.message })) }))}\n`,
      );
    } else {
      const lines: string[] = [];
      for (const skill of skills) {
        lines.push(skill.name);
        lines.push(`    ${skill.description.replace(/\s+/g, " ")}`);
        lines.push(`    source: ${skill.dir}`);
      }
      // Names and descriptions come from SKILL.md files, maybe downloaded.
      stdoutForPeople().write(lines.length > 0 ? `${lines.join("\n")}\n` : "");
      if (skills.length === 0 && problems.length === 0)
        process.stderr.write(
          "no skills yet: a skill is a folder ~/.rienda/skills/<name> holding a SKILL.md (docs/skills.md)\n",
        );
      for (const problem of problems)
        for (const line of problem.message.split("\n")) stderrForPeople().write(`rienda: ${line}\n`);
    }
    if (problems.length > 0) process.exitCode = 1;
  },
});

/** `rienda skill`: the Agent Skills installed in ~/.rienda/skills. */
export default defineCommand({
  meta: { name: "skill", description: "List the skills of ~/.rienda/skills." },
  subCommands: { list },
});
