/**
 * Validation of one agent definition. Strict like config.yaml: unknown keys
 * and wrong types are errors, and every problem of the file is reported at
 * once, each line naming the file.
 */
import { RiendaError } from "../errors.ts";
import { describeYamlValue as describe, isRecord as isPlainObject } from "../values.ts";
import { readFrontmatter } from "./read-frontmatter.ts";
import { isValidSkillName, SKILL_NAME_RULE, SKILL_TOOL_NAME } from "./skill-name.ts";
import { AGENT_LAYOUT } from "./split-frontmatter.ts";
import type { Agent } from "./types.ts";
import { LIMIT_KEYS, readLimit, type LimitSettings } from "../limits/index.ts";
import { readPermissionRules } from "../permissions/index.ts";
import { readSandboxSettings, settingPath } from "../sandbox/index.ts";

const KEYS = [
  "description",
  "model",
  "tools",
  "hooks",
  "skills",
  "agents",
  "config",
  ...LIMIT_KEYS,
  "sandbox",
  "permissions",
] as const;
// tools.md "Name rules": the only names a tool or hook directory can have.
const EXTENSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// docs/mcp.md: `server__*` in tools: stands for every tool of an MCP server.
const MCP_SERVER_WILDCARD = /^[A-Za-z0-9_-]{1,62}__\*$/;

/** Parses the text of `file` as agent `id`. Throws RiendaError (code "agent"), one line per problem. */
export function parseAgent(id: string, text: string, file: string): Agent {
  const problems: string[] = [];
  const fail = (): never => {
    throw new RiendaError("agent", problems.map((p) => `${file}: ${p}`).join("\n"));
  };
  const read = readFrontmatter(text, AGENT_LAYOUT);
  if (!read.ok) {
    problems.push(...read.problems);
    return fail();
  }
  const { meta, body, text: text_ } = read.value;

  for (const key of Object.keys(meta)) {
    if (!(KEYS as readonly string[]).includes(key))
      problems.push(`unknown key "${key}" in the frontmatter (known keys: ${KEYS.join(", ")})`);
  }

  let description = "";
  if (meta.description === undefined || meta.description === null) {
    problems.push('missing "description" (a non-empty text saying what the agent does)');
  } else {
    const written = text_(meta.description, ["description"]);
    if (written === undefined) problems.push(`description: must be a string, not ${describe(meta.description)}`);
    else if (written.trim() === "") problems.push("description: must not be empty");
    else description = written.trim();
  }

  // Optional (go-current.md §2): an agent of the Go Rienda's current generation names no model; the session picks one.
  let model: string | undefined;
  if (meta.model !== undefined && meta.model !== null) {
    const written = text_(meta.model, ["model"])?.trim();
    if (written === undefined) problems.push(`model: must be a string, not ${describe(meta.model)}`);
    else if (!isModelRef(written)) problems.push(`model: must have the form provider/alias (got "${written}")`);
    else model = written;
  }

  const tools = readNames(meta.tools, "tools", "tool", [isToolName, EXTENSION_RULE], problems, text_);
  const hooks = readNames(meta.hooks, "hooks", "hook", [isExtensionName, EXTENSION_RULE], problems, text_);
  const skills = readNames(meta.skills, "skills", "skill", [isValidSkillName, SKILL_NAME_RULE], problems, text_);
  const agents = readNames(meta.agents, "agents", "subagent", [isSubagentId, SUBAGENT_RULE], problems, text_);
  // Two tools of one name would reach the model (which providers refuse), one of them unreachable.
  agents.forEach((id, i) => {
    const tool = `${SUBAGENT_TOOL_PREFIX}${id}`;
    if (tools.includes(tool))
      problems.push(
        `agents[${i}]: "${id}" becomes the tool ${tool}, which tools: lists too; rename that tool, or remove one of the two`,
      );
  });
  if (skills.length > 0 && tools.includes(SKILL_TOOL_NAME)) {
    problems.push(
      `tools: "${SKILL_TOOL_NAME}" is the built-in tool of skills, given to every agent that declares skills; remove it from tools:`,
    );
  }
  const config = readConfig(meta.config, problems);
  const limits: LimitSettings = {};
  for (const key of LIMIT_KEYS) {
    if (meta[key] === undefined) continue;
    const problem = readLimit(limits, key, meta[key]);
    if (problem) problems.push(`${key}: ${problem}`);
  }
  const sandbox = readSandboxSettings(meta.sandbox);
  const permissions = readPermissionRules(meta.permissions, file);
  for (const p of sandbox.problems) problems.push(`${settingPath("sandbox", p.path)}: ${p.message}`);
  for (const p of permissions.problems) problems.push(`${settingPath("permissions", p.path)}: ${p.message}`);

  if (problems.length > 0) return fail();
  const safety = { sandbox: sandbox.settings, permissions: permissions.rules };
  return {
    id,
    file,
    description,
    ...(model !== undefined ? { model } : {}),
    tools,
    hooks,
    skills,
    agents,
    config,
    limits,
    ...safety,
    systemPrompt: body.trim(),
  };
}

const EXTENSION_RULE = '1 to 64 letters, digits, "_" or "-"';
const isExtensionName = (name: string): boolean => EXTENSION_NAME.test(name);
const isToolName = (name: string): boolean => EXTENSION_NAME.test(name) || MCP_SERVER_WILDCARD.test(name);
/** What a subagent's tool name starts with: agent `id` is offered as the tool agent__<id>. */
const SUBAGENT_TOOL_PREFIX = "agent__";
// Tool names are 1 to 64 of these characters.
const SUBAGENT_ID = /^[A-Za-z0-9_-]{1,57}$/;
const SUBAGENT_RULE = 'an agent id of 1 to 57 letters, digits, "_" or "-", as it becomes the tool name agent__<id>';
const isSubagentId = (id: string): boolean => SUBAGENT_ID.test(id);

function readNames(
  value: unknown,
  key: "tools" | "hooks" | "skills" | "agents",
  kind: "tool" | "hook" | "skill" | "subagent",
  [valid, rule]: [(name: string) => boolean, string],
  problems: string[],
  text: (value: unknown, path: (string | number)[]) => string | undefined,
): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${key}: must be a list of ${kind} names, not ${describe(value)}`);
    return [];
  }
  const names: string[] = [];
  value.forEach((item, i) => {
    const name = text(item, [key, i])?.trim();
    if (name === undefined) problems.push(`${key}[${i}]: must be a ${kind} name, not ${describe(item)}`);
    else if (!valid(name)) problems.push(`${key}[${i}]: "${name}" is not a valid ${kind} name (${rule})`);
    else if (names.includes(name)) problems.push(`${key}[${i}]: "${name}" is listed twice`);
    else names.push(name);
  });
  return names;
}

function readConfig(value: unknown, problems: string[]): Record<string, Record<string, unknown>> {
  const config: Record<string, Record<string, unknown>> = {};
  if (value === undefined || value === null) return config;
  if (!isPlainObject(value)) {
    problems.push(`config: must be a mapping of extension name to settings, not ${describe(value)}`);
    return config;
  }
  for (const [name, written] of Object.entries(value)) {
    // `name:` with nothing after it loaded in the Go original (a nil map): no settings.
    const settings = written === null ? {} : written;
    if (isPlainObject(settings)) {
      Object.defineProperty(config, name, { value: settings, enumerable: true, writable: true, configurable: true });
    } else {
      problems.push(
        `config.${name}: must be a mapping of settings for the extension "${name}" (write {} for none), not ${describe(settings)}`,
      );
    }
  }
  return config;
}

function isModelRef(ref: string): boolean {
  const slash = ref.indexOf("/");
  return slash > 0 && ref.slice(0, slash).trim() !== "" && ref.slice(slash + 1).trim() !== "";
}
