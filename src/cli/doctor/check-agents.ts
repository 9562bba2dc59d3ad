/**
 * Findings about ~/.rienda/agents: files that do not parse, models that do
 * not resolve, and tools or hooks named but not installed or not loading.
 * These are exactly the things `rienda run` refuses before its first request.
 */
import { join } from "node:path";
import type { Agent, AgentProblem } from "../../agents/index.ts";
import { splitModelRef, type LoadedConfig } from "../../config/index.ts";
import { unknownProvider } from "../../roster/index.ts";
import {
  brokenExtension,
  unknownExtensionMessage,
  type ExtensionDiagnostic,
  type ExtensionKind,
} from "../../extensions/index.ts";
import { fileProblemFindings } from "./file-problem-findings.ts";
import type { ProviderFacts } from "./read-providers.ts";
import type { Finding } from "./types.ts";

/** The frontmatter keys of an agent file, as its problems name them. */
const AGENT_KEYS = ["description", "model", "tools", "hooks", "skills", "agents", "config"];

/** One problem per line of each broken agent file. */
export function checkAgentFiles(problems: readonly AgentProblem[]): Finding[] {
  return problems.flatMap((problem) =>
    fileProblemFindings(
      "agent",
      { file: problem.file, name: problem.id, message: problem.message },
      AGENT_KEYS,
      agentHint,
    ),
  );
}

/** A fix for one problem of an agent file. */
function agentHint(message: string): string {
  const unknown = /^unknown key "([^"]*)"/.exec(message);
  if (unknown)
    return `remove "${unknown[1]}" from the frontmatter, or correct its spelling (the message lists the known keys)`;
  if (/^description:/.test(message)) return "add a one-line description: to the frontmatter";
  if (/^model:/.test(message)) return "write model: as provider/alias, naming a model declared in config.yaml";
  if (/is listed twice/.test(message)) return "list each name once";
  if (/is not a valid (tool|hook) name/.test(message))
    return 'use the directory name of the tool or hook (1 to 64 letters, digits, "_" or "-")';
  if (/is not a valid skill name/.test(message))
    return "use the skill's folder name: lowercase letters and digits, single hyphens between them";
  if (/is the built-in tool of skills/.test(message))
    return 'remove "skill" from tools: (an agent with skills gets the skill tool from them)';
  if (/becomes the tool/.test(message))
    return "rename the tool (its folder in ~/.rienda/tools), or remove one of the two names";
  if (/is not a valid subagent name/.test(message))
    return 'name an agent whose id has only letters, digits, "_" or "-" (rename its file), so that agent__<id> is a valid tool name';
  if (/^(tools|hooks|skills|agents)/.test(message))
    return "write the names as a YAML list, e.g. tools: [shell, word-count]";
  if (/^config/.test(message)) return "write config: as a mapping of extension name to settings, {} for none";
  if (/duplicate key/.test(message)) return "keep one of the two keys and delete the other";
  if (/^line \d+/.test(message)) return "fix the frontmatter's YAML at that line";
  if (/not a valid agent id/.test(message))
    return "rename the file: an id has no \\ or control characters and does not end in .md";
  if (/broken symbolic link/.test(message)) return "point the link at an existing file, or delete it";
  if (/cannot be (read|listed)/.test(message))
    return "make it readable by you (chmod u+r), or move it out of ~/.rienda/agents";
  return 'start the file with a "---" line, the YAML frontmatter (description, model), another "---" line, then the system prompt (docs/agents.md)';
}

/**
 * A problem for each agent whose model no provider offers: config.yaml's
 * providers as declared, provider modules as evaluated (`providers`; one
 * that fails has its own finding, one whose state is unknown is left out).
 */
export function checkAgentModels(
  agents: readonly Agent[],
  config: Pick<LoadedConfig, "path" | "present" | "providers" | "modelRefs">,
  providers: readonly ProviderFacts[] = [],
): Finding[] {
  const findings: Finding[] = [];
  const modules = providers.filter((p) => p.row.origin !== "config" && !config.providers.has(p.row.name));
  const refs = [
    ...config.modelRefs(),
    ...modules.flatMap((p) => (p.aliases ?? []).map((alias) => `${p.row.name}/${alias}`)),
  ];
  const choices =
    refs.length > 0 ? `one of ${refs.slice(0, 8).join(", ")}${refs.length > 8 ? ", ..." : ""}` : "a model you declare";
  for (const agent of agents) {
    // An agent without a model runs the one its session picks (go-current.md §5).
    const parts = agent.model === undefined ? undefined : splitModelRef(agent.model);
    if (!parts) continue; // parseAgent already refuses a malformed one.
    const module = modules.find((p) => p.row.name === parts.provider);
    const fault = module
      ? moduleModelFault(module, parts.alias)
      : configModelFault(config, providers, parts.provider, parts.alias);
    if (fault === undefined) continue;
    findings.push({
      severity: "problem",
      check: "agent",
      file: agent.file,
      key: "model",
      name: agent.id,
      message: fault.message,
      hint: `change model: to ${choices}, or ${fault.fix}`,
    });
  }
  return findings;
}

type ModelFault = { message: string; fix: string } | undefined;

function configModelFault(
  config: Pick<LoadedConfig, "path" | "present" | "providers">,
  providers: readonly ProviderFacts[],
  name: string,
  alias: string,
): ModelFault {
  const provider = config.providers.get(name);
  if (!provider) {
    const listings =
      providers.length > 0
        ? providers.map((p) => ({ name: p.row.name, origin: p.row.origin, source: p.row.source, hides: [...p.hides] }))
        : [...config.providers.keys()].map((n) => ({
            name: n,
            origin: "config" as const,
            source: config.path,
            hides: [],
          }));
    return {
      message: unknownProvider(name, listings, config).message,
      fix: `add a provider "${name}" with a model "${alias}" to ${config.path}, or a provider module ~/.rienda/providers/${name}/index.js`,
    };
  }
  if (provider.models.has(alias)) return undefined;
  const known = [...provider.models.keys()];
  return {
    message: `unknown model "${alias}" in provider "${name}" (${known.length > 0 ? `models: ${known.join(", ")}` : "it declares no models"})`,
    fix: `declare "${alias}" under providers.${name}.models in ${config.path}`,
  };
}

function moduleModelFault(module: ProviderFacts, alias: string): ModelFault {
  const { row } = module;
  if (module.unsettled !== undefined) return undefined;
  if (module.aliases === undefined)
    return {
      message: `provider "${row.name}" does not load (${row.source}, see its own finding)`,
      fix: `fix ${row.source}`,
    };
  if (module.aliases.includes(alias)) return undefined;
  const known =
    module.aliases.length > 20 ? `${module.aliases.slice(0, 20).join(", ")}, ...` : module.aliases.join(", ");
  return {
    message: `unknown model "${alias}" in provider "${row.name}" (${module.aliases.length > 0 ? `models: ${known}` : "its module declares no models"})`,
    fix: `add "${alias}" to the models its module returns (${row.source})`,
  };
}

/** What discovery found for one kind of extension. */
export interface ExtensionInventory {
  /** Names that loaded (built-ins included for tools). */
  loaded: readonly string[];
  /** Every name installed or built in, loaded or not. */
  available: readonly string[];
  diagnostics: readonly ExtensionDiagnostic[];
  /** Names checked elsewhere (MCP tools), never reported here. */
  elsewhere?: (name: string) => boolean;
}

/** A problem for each tool or hook an agent names that is not installed or does not load. */
export function checkAgentExtensions(
  agents: readonly Agent[],
  riendaDir: string,
  inventory: { tool: ExtensionInventory; hook: ExtensionInventory },
): Finding[] {
  const findings: Finding[] = [];
  for (const agent of agents) {
    for (const kind of ["tool", "hook"] as const) {
      const names = kind === "tool" ? agent.tools : agent.hooks;
      const { loaded, available, diagnostics, elsewhere } = inventory[kind];
      names.forEach((name, index) => {
        if (loaded.includes(name) || elsewhere?.(name)) return;
        const list = `${kind}s`;
        const broken = brokenExtension(kind, name, { available, diagnostics });
        const finding: Finding = {
          severity: "problem",
          check: "agent",
          file: agent.file,
          key: `${list}[${index}]`,
          name: agent.id,
          message: broken
            ? `${kind} "${name}" does not load: ${broken.problem}`
            : unknownExtensionMessage(kind, name, { available, diagnostics }),
          hint: broken
            ? `fix ${broken.file} (see its own finding), or remove "${name}" from ${list}:`
            : `install it as ${extensionFile(riendaDir, kind, name)}, or remove "${name}" from ${list}:`,
        };
        findings.push(finding);
      });
    }
  }
  return findings;
}

function extensionFile(riendaDir: string, kind: ExtensionKind, name: string): string {
  return join(riendaDir, `${kind}s`, name, "index.js");
}

/** A problem for each agent named under `agents:` (a subagent) that does not exist or does not load. */
export function checkAgentSubagents(agents: readonly Agent[], problems: readonly AgentProblem[]): Finding[] {
  const findings: Finding[] = [];
  const loaded = agents.map((a) => a.id);
  for (const agent of agents) {
    agent.agents.forEach((id, index) => {
      if (loaded.includes(id)) return;
      const broken = problems.find((p) => p.id === id);
      findings.push({
        severity: "problem",
        check: "agent",
        file: agent.file,
        key: `agents[${index}]`,
        name: agent.id,
        message: broken
          ? `subagent "${id}" does not load (${broken.file})`
          : `unknown agent "${id}" (available: ${loaded.join(", ")})`,
        hint: broken
          ? `fix ${broken.file} (see its own finding), or remove "${id}" from agents:`
          : `create it as ${id}.md beside ${agent.file}, or remove "${id}" from agents:`,
      });
    });
  }
  return findings;
}
