/**
 * Validation of one SKILL.md, as strict as agent files: the Agent Skills
 * format's keys and limits, unknown keys refused, every problem of the file
 * reported at once, each line naming the file.
 */
import { isValidSkillName, readFrontmatter, SKILL_NAME_RULE, type Frontmatter } from "../agents/index.ts";
import { RiendaError } from "../errors.ts";
import { describeYamlValue as describeValue, isRecord } from "../values.ts";
import type { Skill } from "./types.ts";

const KEYS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"] as const;
/**
 * Keys outside the format that Claude Code documents for its own skills
 * (and a top-level `version`, common in public skills). A skill written for
 * it must load unchanged, so these are accepted and ignored, each reported
 * by doctor as a warning; any other unknown key is still refused.
 */
const OTHER_HARNESS_KEYS = [
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "version",
] as const;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/**
 * Parses `text`, the SKILL.md of the folder `dir` named `folder`. Throws
 * RiendaError (code "skill"), one line per problem, each starting with `file`.
 */
export function parseSkill(folder: string, dir: string, file: string, text: string): Skill {
  const problems: string[] = [];
  const fail = (): never => {
    throw new RiendaError("skill", problems.map((p) => `${file}: ${p}`).join("\n"));
  };
  const read = readFrontmatter(text, { required: ["name", "description"], body: "the instructions" });
  if (!read.ok) {
    problems.push(...read.problems);
    return fail();
  }
  const { meta, body, text: textOf } = read.value;

  const ignoredKeys: string[] = [];
  for (const key of Object.keys(meta)) {
    if ((KEYS as readonly string[]).includes(key)) continue;
    if ((OTHER_HARNESS_KEYS as readonly string[]).includes(key)) ignoredKeys.push(key);
    else problems.push(`unknown key "${key}" in the frontmatter (known keys: ${KEYS.join(", ")})`);
  }

  let name = "";
  const writtenName = meta.name === undefined || meta.name === null ? undefined : textOf(meta.name, ["name"]);
  if (meta.name === undefined || meta.name === null)
    problems.push(`missing "name" (the skill's name, equal to its folder's: "${folder}")`);
  else if (writtenName === undefined) problems.push(`name: must be a string, not ${describeValue(meta.name)}`);
  else if (!isValidSkillName(writtenName))
    problems.push(`name: "${writtenName}" is not a valid skill name (${SKILL_NAME_RULE})`);
  else if (writtenName !== folder) problems.push(`name: "${writtenName}" must equal the folder's name "${folder}"`);
  else name = writtenName;

  let description = "";
  if (meta.description === undefined || meta.description === null) {
    problems.push('missing "description" (what the skill does and when to use it)');
  } else {
    const written = textOf(meta.description, ["description"])?.trim();
    if (written === undefined) problems.push(`description: must be a string, not ${describeValue(meta.description)}`);
    else if (written === "") problems.push("description: must not be empty");
    else if (length(written) > MAX_DESCRIPTION)
      problems.push(`description: must be at most ${MAX_DESCRIPTION} characters (it has ${length(written)})`);
    else description = written;
  }

  const license = optionalText(meta.license, "license", textOf, problems);
  const compatibility = optionalText(meta.compatibility, "compatibility", textOf, problems);
  if (compatibility !== undefined && (compatibility.trim() === "" || length(compatibility) > MAX_COMPATIBILITY)) {
    problems.push(`compatibility: must be 1 to ${MAX_COMPATIBILITY} characters (it has ${length(compatibility)})`);
  }
  const metadata = readMetadata(meta.metadata, textOf, problems);
  const allowedTools = readAllowedTools(meta["allowed-tools"], textOf, problems);

  if (problems.length > 0) return fail();
  const skill: Skill = { name, description, dir, file, body: body.trim(), metadata, allowedTools, ignoredKeys };
  if (license !== undefined) skill.license = license;
  if (compatibility !== undefined) skill.compatibility = compatibility;
  return skill;
}

function optionalText(
  value: unknown,
  key: string,
  textOf: Frontmatter["text"],
  problems: string[],
): string | undefined {
  if (value === undefined || value === null) return undefined;
  const written = textOf(value, [key]);
  if (written === undefined) problems.push(`${key}: must be a string, not ${describeValue(value)}`);
  return written;
}

function readMetadata(value: unknown, textOf: Frontmatter["text"], problems: string[]): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (value === undefined || value === null) return metadata;
  if (!isRecord(value)) {
    problems.push(`metadata: must be a mapping of names to text (author: ana), not ${describeValue(value)}`);
    return metadata;
  }
  for (const [key, item] of Object.entries(value)) {
    const written = textOf(item, ["metadata", key]);
    if (written === undefined) problems.push(`metadata.${key}: must be text, not ${describeValue(item)}`);
    else Object.defineProperty(metadata, key, { value: written, enumerable: true, writable: true, configurable: true });
  }
  return metadata;
}

function readAllowedTools(value: unknown, textOf: Frontmatter["text"], problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/\s+/).filter((t) => t !== "");
  if (Array.isArray(value)) {
    const tools: string[] = [];
    value.forEach((item, i) => {
      const written = textOf(item, ["allowed-tools", i]);
      if (written === undefined) problems.push(`allowed-tools[${i}]: must be a tool name, not ${describeValue(item)}`);
      else tools.push(written);
    });
    return tools;
  }
  problems.push(`allowed-tools: must be a space-separated string or a list of tool names, not ${describeValue(value)}`);
  return [];
}

/** Characters as people count them (code points), as the format's limits mean. */
function length(text: string): number {
  return [...text].length;
}
