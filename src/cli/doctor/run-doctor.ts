/**
 * Gathers what the checks look at (config, agents, extensions loaded in
 * fresh workers, instructions, session permissions, replay scripts) and
 * turns it into a report. Reads only: it writes no file and sends no model
 * request (a local server is asked only its model list); extension
 * modules are loaded, never called.
 */
import { existsSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { INSTRUCTION_FILES, listAgents, loadProjectInstructions, type OutsideLink } from "../../agents/index.ts";
import { ConfigError, loadConfig, locateConfig, type LoadedConfig } from "../../config/index.ts";
import { messageOf } from "../../errors.ts";
import { discoverHooks, discoverTools } from "../../extensions/index.ts";
import { startMcpServers, type McpServers } from "../../mcp/index.ts";
import { createRuntime } from "../../runtime/index.ts";
import { listSkills } from "../../skills/index.ts";
import { createToolRunner } from "../../tools/index.ts";
import { checkAgentExtensions, checkAgentFiles, checkAgentModels, checkAgentSubagents } from "./check-agents.ts";
import { checkConfig, checkConfigWarnings, type ConfigOutcome } from "./check-config.ts";
import {
  checkCredentialsFile,
  checkHiddenModules,
  checkProviderKeys,
  checkProviderModules,
  checkProvidersFolder,
} from "./check-providers.ts";
import { readProviders } from "./read-providers.ts";
import { checkExtensions } from "./check-extensions.ts";
import { checkInstructions, checkOutsideLinks, type InstructionsOutcome } from "./check-instructions.ts";
import { checkLocalServers } from "./check-local-servers.ts";
import { checkAgentMcpTools, checkMcpServers, isMcpReference } from "./check-mcp-servers.ts";
import { readReplayScript, type ReplayScriptRead } from "../../compose/index.ts";
import { checkReplayScripts, type ReplayScriptOutcome } from "./check-replay-scripts.ts";
import { checkSessions, type ModeEntry } from "./check-sessions.ts";
import { checkAgentSkills, checkSkillFolders, checkSkillIgnoredKeys } from "./check-skills.ts";
import { checkVariables } from "./check-variables.ts";
import { modelUsers } from "./model-users.ts";
import type { DoctorReport, Finding } from "./types.ts";
import { isFile } from "../../values.ts";

/** Where to look; nothing is read from the process. */
export interface DoctorOptions {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The workspace (absolute, existing). */
  workdir: string;
  /** `--config PATH`, when given. */
  configFlag?: string;
  /** Directory a relative `--config` resolves against. */
  cwd?: string;
}

/** Runs every check. Never throws for what it finds; findings carry it. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const riendaDir = join(options.home, ".rienda");
  const loadOptions = {
    env: options.env,
    home: options.home,
    ...(options.configFlag ? { flag: options.configFlag } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  };
  const location = locateConfig(loadOptions);
  const { config, outcome } = readConfig(location.path, location.source, () => loadConfig(loadOptions));

  const { agents, problems: agentProblems } = listAgents(options.home);
  const { skills, problems: skillProblems } = listSkills(options.home);
  const runtime = createRuntime();
  const used = config ? modelUsers(agents, config.compaction) : [];
  const [tools, hooks, servers, localServers, providers] = await Promise.all([
    discoverTools({ riendaDir, runtime, runner: createToolRunner() }),
    discoverHooks({ riendaDir, runtime }),
    // Every configured server is started, like a run would, and closed again.
    config && config.mcpServers.size > 0
      ? startMcpServers([...config.mcpServers.values()], {
          workdir: options.workdir,
          env: options.env,
          configPath: config.path,
          requireAll: false,
        })
      : undefined,
    config ? checkLocalServers(config, used) : { findings: [], windows: [] },
    config ? readProviders(config, { home: options.home, env: options.env }) : undefined,
  ]).finally(() => runtime.close());
  const outsideLinks: OutsideLink[] = [];
  const instructions = readInstructions(options.workdir, outsideLinks);

  const findings: Finding[] = [...checkConfig(outcome)];
  if (config) {
    const users = used;
    findings.push(...checkConfigWarnings(config.warnings));
    findings.push(...checkVariables(config, users));
    findings.push(...checkReplayScripts(config.path, readReplayScripts(config), users));
  }
  if (config && providers) {
    findings.push(...checkCredentialsFile(providers.credentials), ...checkProvidersFolder(providers.folder));
    findings.push(
      ...checkProviderModules(providers.providers),
      ...checkHiddenModules(providers.providers, config.path),
    );
    findings.push(...checkProviderKeys(providers.providers, used, providers.credentials.path));
  }
  findings.push(...checkAgentFiles(agentProblems));
  if (config) findings.push(...checkAgentModels(agents, config, providers?.providers), ...localServers.findings);
  findings.push(
    ...checkAgentExtensions(agents, riendaDir, {
      tool: {
        loaded: tools.tools.map((t) => t.name),
        available: tools.available,
        diagnostics: tools.diagnostics,
        elsewhere: (name) => config !== undefined && isMcpReference(name, config),
      },
      hook: { loaded: hooks.hooks.map((h) => h.name), available: hooks.available, diagnostics: hooks.diagnostics },
    }),
  );
  if (config) findings.push(...checkAgentMcpTools(agents, config, servers ?? NO_SERVERS));
  if (config && servers) findings.push(...checkMcpServers(config, servers));
  await servers?.close();
  findings.push(...checkAgentSkills(agents, riendaDir, skills, skillProblems));
  findings.push(...checkAgentSubagents(agents, agentProblems));
  findings.push(...checkExtensions([...tools.diagnostics, ...hooks.diagnostics]));
  findings.push(...checkSkillFolders(skillProblems));
  findings.push(...checkSkillIgnoredKeys(skills));
  findings.push(...checkOutsideLinks(outsideLinks), ...checkInstructions(instructions));
  findings.push(...checkSessions(sessionModes(join(riendaDir, "sessions"))));

  const problems = findings.filter((f) => f.severity === "problem");
  return {
    healthy: problems.length === 0,
    problems,
    warnings: findings.filter((f) => f.severity === "warning"),
    checked: {
      config: location.path,
      configLoaded: config !== undefined,
      configPresent: config?.present ?? existsSync(location.path),
      providers: providers?.providers.map((p) => p.row) ?? [],
      agents: agents.map((a) => a.id),
      tools: tools.tools.map((t) => t.name),
      hooks: hooks.hooks.map((h) => h.name),
      skills: skills.map((s) => s.name),
      workspace: options.workdir,
      instructions: instructions.kind === "none" ? null : instructions.file,
      contextWindows: localServers.windows,
    },
  };
}

const NO_SERVERS: McpServers = {
  connections: [],
  toolsOf: () => [],
  version: () => 0,
  notices: [],
  close: async () => undefined,
};

function readConfig(
  path: string,
  source: "flag" | "env" | "home",
  load: () => LoadedConfig,
): { config?: LoadedConfig; outcome: ConfigOutcome } {
  // ~/.rienda/config.yaml is optional (go-current.md §2): without it the settings are the defaults.
  if (!existsSync(path) && source !== "home") return { outcome: { kind: "missing", file: path, source } };
  try {
    return { config: load(), outcome: { kind: "loaded" } };
  } catch (error) {
    if (error instanceof ConfigError) return { outcome: { kind: "invalid", problems: error.problems } };
    return { outcome: { kind: "invalid", problems: [{ file: path, path: "", message: messageOf(error) }] } };
  }
}

/** The instructions a run would read; files a link leads out of the workspace go to `outside`. */
function readInstructions(workdir: string, outside: OutsideLink[]): InstructionsOutcome {
  let found: ReturnType<typeof loadProjectInstructions>;
  try {
    found = loadProjectInstructions(workdir, (link) => outside.push(link));
  } catch (error) {
    const file =
      INSTRUCTION_FILES.map((name) => join(workdir, name)).find((f) => messageOf(error).startsWith(`${f}: `)) ??
      join(workdir, INSTRUCTION_FILES[0]!);
    const reason = messageOf(error).slice(file.length + 2);
    return reason.startsWith("cannot be read: ")
      ? { kind: "unreadable", file, reason: reason.slice("cannot be read: ".length) }
      : { kind: "refused", file, reason };
  }
  if (!found) return { kind: "none" };
  const later = INSTRUCTION_FILES.slice(INSTRUCTION_FILES.findIndex((name) => join(workdir, name) === found.file) + 1)
    .map((name) => join(workdir, name))
    .find((f) => isFile(f));
  return later
    ? { kind: "read", file: found.file, text: found.text, hidden: later }
    : { kind: "read", file: found.file, text: found.text };
}

function readReplayScripts(config: LoadedConfig): ReplayScriptOutcome[] {
  const outcomes: ReplayScriptOutcome[] = [];
  for (const provider of config.providers.values()) {
    if (provider.protocol !== "replay" || provider.script === undefined) continue;
    const file = provider.script;
    const read = readReplayScript(file);
    outcomes.push({ provider: provider.name, file, ...replayProblem(read, file) });
  }
  return outcomes;
}

/** What doctor says about a replay script that a run could not use (without the file's name). */
function replayProblem(read: ReplayScriptRead, file: string): Pick<ReplayScriptOutcome, "problem" | "missing"> {
  switch (read.kind) {
    case "ok":
      return {};
    case "missing":
      return { problem: "does not exist", missing: true };
    case "unreadable": {
      const code = (read.error as NodeJS.ErrnoException).code;
      return {
        problem:
          code === "EISDIR"
            ? "is a directory, not a file"
            : code === "EACCES"
              ? "cannot be read: permission denied"
              : `cannot be read: ${messageOf(read.error)}`,
      };
    }
    case "invalid":
      return {
        problem: `is invalid: ${read.message.startsWith(`${file}: `) ? read.message.slice(file.length + 2) : read.message}`,
      };
    case "empty":
      return { problem: "has no turns" };
  }
}

/** The sessions directory, its workspace directories and their files; symbolic links are not followed. */
function sessionModes(sessionsDir: string): ModeEntry[] {
  const top = lstatOrUndefined(sessionsDir);
  if (!top?.isDirectory()) return [];
  const entries: ModeEntry[] = [{ path: sessionsDir, kind: "dir", mode: top.mode }];
  for (const name of readdirOrEmpty(sessionsDir)) {
    const dir = join(sessionsDir, name);
    const stat = lstatOrUndefined(dir);
    if (!stat) continue;
    if (stat.isFile()) entries.push({ path: dir, kind: "file", mode: stat.mode });
    if (!stat.isDirectory()) continue;
    entries.push({ path: dir, kind: "dir", mode: stat.mode });
    for (const child of readdirOrEmpty(dir)) {
      const file = join(dir, child);
      const childStat = lstatOrUndefined(file);
      if (childStat?.isFile()) entries.push({ path: file, kind: "file", mode: childStat.mode });
    }
  }
  return entries;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
