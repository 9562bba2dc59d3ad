/**
 * Findings about ~/.rienda/skills and the skills agents declare: a skill
 * folder that does not load, and an agent naming a skill that is missing or
 * broken, which `rienda run` refuses before its first request.
 */
import { join } from "node:path";
import type { Agent } from "../../agents/index.ts";
import { SKILL_FILE, type Skill, type SkillProblem } from "../../skills/index.ts";
import { fileProblemFindings } from "./file-problem-findings.ts";
import type { Finding } from "./types.ts";

/** The frontmatter keys of a SKILL.md, as its problems name them. */
const SKILL_KEYS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/** One problem per line of each broken skill. */
export function checkSkillFolders(problems: readonly SkillProblem[]): Finding[] {
  return problems.flatMap((problem) => fileProblemFindings("skill", problem, SKILL_KEYS, skillHint));
}

/** A warning for each key of another harness's own that a skill carries: it loads, but Rienda does not act on the key. */
export function checkSkillIgnoredKeys(skills: readonly Skill[]): Finding[] {
  return skills.flatMap((skill) =>
    skill.ignoredKeys.map(
      (key): Finding => ({
        severity: "warning",
        check: "skill",
        file: skill.file,
        name: skill.name,
        key,
        message: "a key other harnesses use (Claude Code), outside the Agent Skills format; Rienda ignores it",
        hint: `nothing to do for the skill to work here; remove "${key}" if the skill is only used with Rienda (docs/skills.md)`,
      }),
    ),
  );
}

/** A fix for one problem of a skill folder. */
export function skillHint(message: string): string {
  const unknown = /^unknown key "([^"]*)"/.exec(message);
  if (unknown)
    return `remove "${unknown[1]}" from the frontmatter (the Agent Skills format allows only the keys listed), or move it under metadata:`;
  if (/must equal the folder's name/.test(message))
    return "rename the folder or change name: so that both are the same";
  if (/^name:|^missing "name"/.test(message))
    return "write name: as the folder's name: lowercase letters and digits, single hyphens between them";
  if (/^description:|^missing "description"/.test(message))
    return "write a description: of at most 1024 characters saying what the skill does and when to use it";
  if (/^compatibility:/.test(message)) return "shorten compatibility: to at most 500 characters, or remove it";
  if (/^metadata/.test(message)) return "write metadata: as a mapping of names to text, e.g. metadata: { author: ana }";
  if (/^allowed-tools/.test(message)) return "write allowed-tools: as a space-separated string or a list of names";
  if (/^license:/.test(message)) return "write license: as text, e.g. license: MIT";
  if (/duplicate key/.test(message)) return "keep one of the two keys and delete the other";
  if (/^line \d+/.test(message)) return "fix the frontmatter's YAML at that line";
  if (/has no SKILL\.md/.test(message))
    return `add a ${SKILL_FILE} (frontmatter with name and description, then the instructions), or remove the folder`;
  if (/cannot be (read|listed)/.test(message))
    return "make it readable by you (chmod u+r), or move it out of ~/.rienda/skills";
  return `start ${SKILL_FILE} with a "---" line, the YAML frontmatter (name, description), another "---" line, then the instructions (docs/skills.md)`;
}

/** A problem for each skill an agent names that is not installed or does not load. */
export function checkAgentSkills(
  agents: readonly Agent[],
  riendaDir: string,
  skills: readonly Skill[],
  problems: readonly SkillProblem[],
): Finding[] {
  const findings: Finding[] = [];
  const loaded = new Set(skills.map((s) => s.name));
  const available = skills.map((s) => s.name);
  for (const agent of agents) {
    agent.skills.forEach((name, index) => {
      if (loaded.has(name)) return;
      const broken = problems.find((p) => p.name === name);
      findings.push({
        severity: "problem",
        check: "agent",
        file: agent.file,
        key: `skills[${index}]`,
        name: agent.id,
        message: broken
          ? `skill "${name}" does not load (${broken.file})`
          : `unknown skill "${name}" (available: ${available.length > 0 ? available.join(", ") : "none installed"})`,
        hint: broken
          ? `fix ${broken.file} (see its own finding), or remove "${name}" from skills:`
          : `install it as ${join(riendaDir, "skills", name, SKILL_FILE)}, or remove "${name}" from skills:`,
      });
    });
  }
  return findings;
}
