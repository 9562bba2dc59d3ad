/**
 * An agent made ready to run without a session (prepareAgent; prepareRun
 * and every subagent start here too): the agent, its model, its skills, the
 * project instructions and the extensions, each checked, then put together
 * with its subagents as tools.
 */
import { join } from "node:path";
import {
  composeSystemPrompt,
  loadAgent,
  loadAgentFile,
  loadProjectInstructions,
  outsideLinkText,
  toAgentInfo,
  type Agent,
  type ProjectInstructions,
} from "../agents/index.ts";
import { loadConfig, type LoadedConfig } from "../config/index.ts";
import { withSubagents, type SubagentSpec, type ToolPort } from "../engine/index.ts";
import { learnContextWindow, type ResolvedModel } from "../providers/index.ts";
import {
  createSkillTool,
  findWorkspaceSkills,
  loadSkills,
  withSkills,
  workspaceSkillsPrompt,
  type Skill,
} from "../skills/index.ts";
import type { ContextData } from "../tools/types.ts";
import { loadAgentExtensions, type AgentExtensions } from "./agent-extensions.ts";
import { withClientServers } from "./client-mcp.ts";
import { resolveLimits } from "./run-limits.ts";
import { chooseRunModels, modelWarnings, withModel, type RunModels } from "./run-model.ts";
import { runThinking, type RunThinking } from "./run-thinking.ts";
import { agentSandbox, sandboxFlag, withPermissionRules } from "./safety.ts";
import { selectTools } from "./select-tools.ts";
import { SetupProblems } from "./setup-problems.ts";
import { loadSubagents, subagentLauncher } from "./subagents.ts";
import type { AgentRequest, Dialogs, PreparedAgent } from "./types.ts";

/** Loads config, agent, model and extensions without touching any session; throws RiendaError when refused. */
export async function prepareAgent(request: AgentRequest, dialogs: Dialogs): Promise<PreparedAgent> {
  const problems: SetupProblems = new SetupProblems();
  return loadPreparedAgent(
    problems.attempt(() => loadRequestConfig(request)),
    request,
    dialogs,
    problems,
  );
}

/** config.yaml as the request locates it: `--config`, else RIENDA_CONFIG, else ~/.rienda. */
export function loadRequestConfig(request: Pick<AgentRequest, "configPath" | "env" | "home">): LoadedConfig {
  return loadConfig({
    ...(request.configPath ? { flag: request.configPath } : {}),
    env: request.env,
    home: request.home,
  });
}

/**
 * The agent, its model, its skills, the project instructions and the
 * extensions, each checked even when an earlier one failed (as far as it
 * does not depend on it), so that one refusal names every problem; throws
 * when there is any.
 */
export async function loadPreparedAgent(
  config: LoadedConfig | undefined,
  request: AgentRequest,
  dialogs: Dialogs,
  problems: SetupProblems,
  above: readonly string[] = [],
): Promise<PreparedAgent> {
  const agent = problems.attempt(() =>
    request.agentFile !== undefined
      ? loadAgentFile(request.agentFile, request.cwd ?? process.cwd())
      : loadAgent(request.home, request.agentId),
  );
  const models = await chooseRunModels(config, agent, request, problems);
  const chosen = models.chosen;
  const thinking = chosen ? problems.attempt(() => runThinking(chosen, request)) : undefined;
  const model = thinking?.model;
  const skills = agent ? problems.attempt(() => loadSkills(request.home, agent.skills)) : undefined;
  const subagents = agent ? problems.attempt(() => loadSubagents(request.home, agent)) : undefined;
  // Boxed: "no instructions file" is undefined too. One that leads out of the workspace is skipped with a notice.
  const outside: string[] = [];
  const instructions = problems.attempt(() => ({
    value: loadProjectInstructions(request.workdir, (found) => outside.push(outsideLinkText(found))),
  }));
  const { client, extensions } = await loadExtensionsFor({ config, agent, model, skills }, request, dialogs, problems);
  // Every refusal counts, also those met before this function (in the same `problems`) that nothing here needs.
  if (
    problems.any ||
    !config ||
    !agent ||
    !model ||
    !thinking ||
    !skills ||
    !subagents ||
    instructions === undefined ||
    !extensions
  ) {
    await extensions?.close();
    problems.fail();
  }
  const parts = { config, agent, model, thinking, skills, subagents, instructions: instructions.value, extensions };
  const notices = { models, outside, client: client?.notices ?? [] };
  return assembleAgent(parts, notices, request, dialogs, problems, above);
}

/** What loadExtensionsFor works from: each part as far as it loaded. */
interface ExtensionInputs {
  config: LoadedConfig | undefined;
  agent: Agent | undefined;
  model: ResolvedModel | undefined;
  skills: Skill[] | undefined;
}

/**
 * The agent's extensions with everything they run in: an editor's MCP
 * servers beside config.yaml's, the skill tool, the shell's environment and
 * sandbox. Refusals go to `problems`; none loaded without an agent.
 */
async function loadExtensionsFor(
  { config, agent, model, skills }: ExtensionInputs,
  request: AgentRequest,
  dialogs: Dialogs,
  problems: SetupProblems,
): Promise<{ client: ReturnType<typeof withClientServers> | undefined; extensions: AgentExtensions | undefined }> {
  const builtIns = skills && skills.length > 0 ? [createSkillTool(skills)] : [];
  // An editor's servers (rienda acp) start beside config.yaml's, every tool they list offered.
  const client = config && agent ? withClientServers(config.mcpServers, agent, request.clientMcpServers) : undefined;
  const mcp =
    client && client.servers.size > 0
      ? {
          servers: client.servers,
          configPath: config!.path,
          workdir: request.workdir,
          env: request.env,
          ...(request.signal ? { signal: request.signal } : {}),
        }
      : undefined;
  // Asked of a local server while the extensions load, so it costs a run no time (server-context-window.ts).
  const serverWindow = model ? learnContextWindow(model, { home: request.home }) : undefined;
  const shellEnv = config ? { shellEnv: config.shell } : {};
  const flag = problems.attempt(() => ({ mode: sandboxFlag(request.sandbox) }));
  // Checked before any request: a sandbox that cannot start here fails the run, listed with every other problem.
  const sandbox =
    config && agent && flag ? await problems.attemptAsync(() => agentSandbox(config, agent, request)) : undefined;
  const extensions = agent
    ? await problems.attemptAsync(() =>
        loadAgentExtensions({
          home: request.home,
          agent: client?.agent ?? agent,
          dialogs,
          builtIns,
          ...(mcp ? { mcp } : {}),
          ...shellEnv,
          ...(sandbox ? { shellSandbox: sandbox } : {}),
        }),
      )
    : undefined;
  await serverWindow;
  return { client, extensions };
}

/** Every part of an agent, loaded and checked. */
interface AgentParts {
  config: LoadedConfig;
  agent: Agent;
  model: ResolvedModel;
  thinking: RunThinking;
  skills: Skill[];
  subagents: SubagentSpec[];
  instructions: ProjectInstructions | undefined;
  extensions: AgentExtensions;
}

/** What was said while loading the parts, for the agent's notices. */
interface LoadNotices {
  models: RunModels;
  /** Project instructions skipped for leading out of the workspace. */
  outside: string[];
  /** About an editor's MCP servers. */
  client: string[];
}

/**
 * The agent put together from its checked parts: its system prompt, its
 * limits, its subagents as tools (narrowed to `--tools` when given), its
 * hooks under the permission rules. Throws when `--tools` is refused.
 */
async function assembleAgent(
  parts: AgentParts,
  said: LoadNotices,
  request: AgentRequest,
  dialogs: Dialogs,
  problems: SetupProblems,
  above: readonly string[],
): Promise<PreparedAgent> {
  const { config, agent, model, thinking, skills, extensions } = parts;
  const system = composeSystemPrompt(withSkills(agent.systemPrompt, skills), parts.instructions?.text);
  const limits = resolveLimits(request.limitFlags, agent, config, request.tree);
  let boundSession: string | undefined;
  const delegation = subagentTools(extensions.tools, parts.subagents, {
    lineage: [...above, agent.id],
    config,
    request: {
      ...request,
      tree: {
        ...(limits.run.cost ? { cost: limits.run.cost } : {}),
        ...(limits.run.requests ? { requests: limits.run.requests } : {}),
      },
    },
    dialogs,
    parentSessionId: () => boundSession ?? "",
    parentModel: model.ref,
  });
  const offered = request.onlyTools
    ? problems.attempt(() => selectTools(delegation.tools, request.onlyTools!, agent.file))
    : delegation.tools;
  if (!offered) {
    await delegation.close();
    await extensions.close();
    problems.fail();
  }
  const { compaction } = said.models;
  return {
    config: compaction ? withModel(config, compaction) : config,
    agent,
    model,
    system,
    tools: offered,
    hooks: withPermissionRules(extensions.hooks, config, agent, dialogs),
    thinking: thinking.level,
    thinkingChosen: thinking.chosen,
    systemExtra: () => workspaceSkillsPrompt(findWorkspaceSkills(request.workdir).skills),
    notices: [
      ...said.models.printed,
      ...said.models.skipped,
      ...said.outside,
      ...modelWarnings(config, model),
      ...thinking.notices,
      ...skippedWorkspaceSkills(request.workdir),
      ...extensions.notices,
      ...said.client,
    ],
    limits,
    bind(session) {
      boundSession = session.id;
      const contextData: ContextData = {
        workdir: request.workdir,
        riendaDir: join(request.home, ".rienda"),
        session: { id: session.id, agentId: agent.id, modelId: model.ref, workdir: request.workdir },
        agent: toAgentInfo(agent),
        config: config.document,
      };
      extensions.bind(contextData);
      return contextData;
    },
    close: async () => {
      await delegation.close();
      await extensions.close();
    },
  };
}

/** The workspace skills left out (a link out of the workspace, no name or description), each a line naming its file. */
function skippedWorkspaceSkills(workdir: string): string[] {
  return findWorkspaceSkills(workdir).diagnostics.filter((line) => line.includes(": skipped: "));
}

/**
 * The agent's tools plus one per subagent. A child is prepared like this
 * agent, with the same config, when the model first calls it (an agent
 * never called costs nothing), and reused by every later call.
 */
function subagentTools(
  tools: ToolPort,
  subagents: readonly SubagentSpec[],
  context: {
    lineage: readonly string[];
    config: LoadedConfig;
    request: AgentRequest;
    dialogs: Dialogs;
    parentSessionId: () => string;
    parentModel: string;
  },
): { tools: ToolPort; close(): Promise<void> } {
  if (subagents.length === 0) return { tools, close: async () => undefined };
  const { lineage, config, request } = context;
  const launcher = subagentLauncher({
    home: request.home,
    workdir: request.workdir,
    dialogs: context.dialogs,
    parentSessionId: context.parentSessionId,
    ...(request.ephemeral ? { ephemeral: true } : {}),
    // The child runs its own model: a -m of the parent does not reach it (a child that names none runs the parent's).
    prepare: (agentId, dialogs) => {
      // Nor do the run's own --agent-file, --tools and --thinking; its limits do (docs/cli.md "Limits").
      const {
        modelRef: _parentModel,
        agentFile: _file,
        onlyTools: _tools,
        thinking: _level,
        sessionThinking: _branchLevel,
        clientMcpServers: _editorServers,
        ...inherited
      } = request;
      return loadPreparedAgent(
        config,
        { ...inherited, agentId, sessionModel: context.parentModel },
        dialogs,
        new SetupProblems(),
        lineage,
      );
    },
  });
  return {
    tools: withSubagents(tools, {
      agents: subagents,
      lineage,
      maxDepth: config.subagents.maxDepth,
      launch: launcher.launch,
    }),
    close: launcher.close,
  };
}
