/**
 * The composition root of a run (compose/): reads config and agent, resolves the model,
 * loads the agent's tools and hooks, opens or creates the session, and
 * wires real implementations into the engine's ports. Everything that can
 * be refused is checked before anything is written or sent.
 */
import { join } from "node:path";
import {
  composeSystemPrompt,
  loadAgent,
  loadAgentFile,
  loadProjectInstructions,
  outsideLinkText,
  toAgentInfo,
} from "../agents/index.ts";
import { formatKeyPath, loadConfig, splitModelRef, type LoadedConfig } from "../config/index.ts";
import { unpricedBudget, withSubagents, type SubagentSpec, type ToolPort } from "../engine/index.ts";
import { resolveLimits } from "./run-limits.ts";
import { selectTools } from "./select-tools.ts";
import { isRiendaError, RiendaError } from "../errors.ts";
import { learnContextWindow, type ResolvedModel } from "../providers/index.ts";
import { chooseModel, readState, statePath, type Roster } from "../roster/index.ts";
import type { Agent } from "../agents/index.ts";
import { openRoster } from "./open-roster.ts";
import { runThinking } from "./run-thinking.ts";
import type { SessionFile } from "../sessions/index.ts";
import {
  createSkillTool,
  findWorkspaceSkills,
  loadSkills,
  withSkills,
  workspaceSkillsPrompt,
} from "../skills/index.ts";
import type { ContextData } from "../tools/types.ts";
import { loadAgentExtensions } from "./agent-extensions.ts";
import { withClientServers } from "./client-mcp.ts";
import { agentSandbox, sandboxFlag, withPermissionRules } from "./safety.ts";
import { checkReplayScript } from "./check-replay-script.ts";
import { sessionWorkdir } from "./session-workdir.ts";
import { newSession, sessionSource, type SessionSource } from "./session-source.ts";
import { loadSubagents, subagentLauncher } from "./subagents.ts";
import type { AgentRequest, Dialogs, PreparedAgent, PreparedRun, RunRequest } from "./types.ts";

/**
 * The refusals met while setting a run up. Each check that does not depend
 * on a failed one still runs, so the user fixes everything in one go, as
 * with `rienda doctor`. Only RiendaErrors are collected; anything else is a
 * bug and propagates as it is.
 */
class SetupProblems {
  readonly #errors: RiendaError[] = [];

  add(error: RiendaError): void {
    this.#errors.push(error);
  }

  /** Whether any refusal was collected, including ones no later step depends on (a continued session's missing workspace). */
  get any(): boolean {
    return this.#errors.length > 0;
  }

  attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (!isRiendaError(error)) throw error;
      this.add(error);
      return undefined;
    }
  }

  async attemptAsync<T>(check: () => Promise<T>): Promise<T | undefined> {
    try {
      return await check();
    } catch (error) {
      if (!isRiendaError(error)) throw error;
      this.add(error);
      return undefined;
    }
  }

  /** Adds a line that only helps beside other problems (it is not a refusal of its own), unless one of them already names `subject`. */
  addHint(hint: RiendaError | undefined, subject: string): void {
    if (hint && this.any && !this.#errors.some((e) => e.message.includes(subject))) this.add(hint);
  }

  /** Throws what was collected: one problem as it is, several as one error listing each on its own line. */
  fail(): never {
    const [first, ...rest] = this.#errors;
    if (!first) throw new RiendaError("internal", "the run could not be set up, for no reason recorded");
    if (rest.length === 0) throw first;
    throw new RiendaError(first.code, this.#errors.map((e) => e.message).join("\n"), { cause: first });
  }
}

/**
 * Validates the request and builds the run; throws RiendaError before
 * writing anything when refused, naming every problem found (one per line),
 * not only the first.
 */
export async function prepareRun(request: RunRequest, dialogs: Dialogs): Promise<PreparedRun> {
  const problems: SetupProblems = new SetupProblems();
  const config = problems.attempt(() => loadRequestConfig(request));
  const ephemeral = request.ephemeral === true;
  const existing: SessionSource | undefined = request.sessionId
    ? problems.attempt(() =>
        sessionSource(
          {
            sessionId: request.sessionId!,
            fork: request.fork === true,
            ephemeral,
            ...(request.at !== undefined ? { at: request.at } : {}),
          },
          { home: request.home, workdir: request.workdir },
        ),
      )
    : undefined;
  // A continued session goes on where it was started, unless -C says otherwise.
  const moved =
    existing && !request.workdirGiven ? problems.attempt(() => sessionWorkdir(existing, request.workdir)) : undefined;
  const workdir = moved?.workdir ?? request.workdir;
  if (request.agentFile !== undefined && request.agentId !== undefined)
    problems.add(new RiendaError("usage", "run: give -a/--agent or --agent-file, not both"));
  const agentId = request.agentFile !== undefined ? "" : (request.agentId ?? existing?.agent);
  if (agentId === undefined) {
    if (!request.sessionId)
      problems.add(
        new RiendaError(
          "usage",
          "run: -a/--agent is required (the agents are the files of ~/.rienda/agents), or --agent-file PATH",
        ),
      );
    problems.fail();
  }
  const modelRef = request.modelRef ?? (existing && !request.agentId ? existing.model : undefined);
  const fromSession = existing
    ? {
        sessionModel: existing.model,
        ...(existing.thinking !== undefined ? { sessionThinking: existing.thinking } : {}),
      }
    : {};
  let prepared: PreparedAgent;
  try {
    prepared = await loadPreparedAgent(
      config,
      { ...request, workdir, agentId, ...(modelRef !== undefined ? { modelRef } : {}), ...fromSession },
      dialogs,
      problems,
    );
  } catch (error) {
    existing?.close();
    throw error;
  }
  let session: SessionFile | undefined;
  try {
    // Nothing is written until every check above has passed, nor after an interrupt.
    if (request.signal?.aborted) throw new RiendaError("interrupted", "the run was interrupted");
    const { agent, model } = prepared;
    request.checkModel?.(model);
    const unpriced = unpricedBudget(prepared.limits.run, model);
    if (unpriced) throw new RiendaError("config", unpriced);
    session = existing
      ? existing.open(request.home, workdir)
      : newSession({ home: request.home, workdir, agent: agent.id, model: model.ref, ephemeral });
    if (existing) {
      session.appendAgent(agent.id);
      session.appendModel(model.ref);
    }
    // Go's shape (go-current.md §5): a level chosen for this run goes on the branch, so -s continues with it.
    if (prepared.thinkingChosen) session.appendThinking(prepared.thinking);
    prepared.bind(session);
    const { system, tools, hooks, limits } = prepared;
    const notices = moved?.notice ? [moved.notice, ...prepared.notices] : prepared.notices;
    const opened = session;
    const close = async () => {
      await prepared.close();
      // A session this run created that received nothing (interrupted in its beforeRun hooks) is not kept.
      opened.closeDiscardingUnused();
    };
    return {
      config: prepared.config,
      workdir,
      agent,
      model,
      thinking: prepared.thinking,
      system,
      systemExtra: prepared.systemExtra,
      session,
      tools,
      hooks,
      notices,
      limits,
      close,
    };
  } catch (error) {
    await prepared.close();
    if (session) session.closeDiscardingUnused();
    else existing?.close();
    throw error;
  }
}

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

/**
 * The model of the run: `-m`, else the agent's, else the session's branch,
 * else state.json's or the only one offered (chooseModel); refused when it
 * cannot make a first request (a missing replay script, no key).
 */
async function runModel(
  roster: Roster,
  agent: Agent | undefined,
  request: AgentRequest,
): Promise<ResolvedModel | undefined> {
  const ref =
    request.modelRef ??
    agent?.model ??
    request.sessionModel ??
    (agent ? await chooseModel(roster, readState(statePath(request.env, request.home)), agent.id) : undefined);
  if (ref === undefined) return undefined;
  const model = await roster.resolve(ref);
  checkReplayScript(model, roster.config.path);
  return model;
}

/**
 * A refused run in a ~/.rienda without config.yaml and without a provider
 * module of the user's is most likely a setup never made: say how to make one
 * (contract.md §1: a missing config.yaml says how to create it).
 */
function nothingSetUp(roster: Roster): RiendaError | undefined {
  const { config } = roster;
  if (config.present || roster.listings().some((l) => l.origin === "module")) return undefined;
  return new RiendaError(
    "config",
    `${config.path}: no configuration file here, and no provider module in ~/.rienda/providers: run "rienda init" for a starter setup, or declare a provider (docs/config.md, docs/provider-modules.md)`,
  );
}

/**
 * `compaction.model` when a provider module offers it: resolved now (a
 * module runs asynchronously; the compactor resolves synchronously, later),
 * so a missing one fails the run before any request, as a config.yaml one does.
 */
async function compactionModel(roster: Roster): Promise<ResolvedModel | undefined> {
  const { compaction, providers } = roster.config;
  const ref = compaction.enabled ? compaction.model : undefined;
  const provider = ref === undefined ? undefined : splitModelRef(ref)?.provider;
  if (ref === undefined || provider === undefined || providers.has(provider)) return undefined;
  return roster.resolve(ref);
}

/** `config` that also resolves `model`'s reference (a module's compaction model), everything else unchanged. */
function withModel(config: LoadedConfig, model: ResolvedModel): LoadedConfig {
  const resolveModel = (ref: string) => (ref === model.ref ? { ...model } : config.resolveModel(ref));
  return Object.assign(Object.create(config) as LoadedConfig, { resolveModel });
}

/** The workspace skills left out (a link out of the workspace, no name or description), each a line naming its file. */
function skippedWorkspaceSkills(workdir: string): string[] {
  return findWorkspaceSkills(workdir).diagnostics.filter((line) => line.includes(": skipped: "));
}

/** config.yaml's warnings about the settings of the model this run uses (a setting that is not sent). */
function modelWarnings(config: LoadedConfig, model: ResolvedModel): string[] {
  const own = formatKeyPath(["providers", model.provider, "models", model.alias]);
  return config.warnings.filter((w) => w.path.startsWith(`${own}.`)).map((w) => `${w.file}: ${w.path}: ${w.message}`);
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

/** config.yaml as the request locates it: `--config`, else RIENDA_CONFIG, else ~/.rienda. */
function loadRequestConfig(request: Pick<AgentRequest, "configPath" | "env" | "home">): LoadedConfig {
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
async function loadPreparedAgent(
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
  // What modules print while they are evaluated reaches the user as the run's notices (stderr, `notice` events, the chat's notices).
  const printed: string[] = [];
  const roster = config
    ? openRoster(config, { ...request, log: (text) => printed.push(text.replace(/\n$/, "")) })
    : undefined;
  const chosen = roster ? await problems.attemptAsync(() => runModel(roster, agent, request)) : undefined;
  const compaction = roster ? await problems.attemptAsync(() => compactionModel(roster)) : undefined;
  // Modules evaluated on the way (to choose the model) that failed: the run goes on without them, and says so.
  const skipped = roster && chosen ? await roster.problems() : [];
  // Once: an unknown provider already says the file is missing.
  if (roster) problems.addHint(nothingSetUp(roster), roster.config.path);
  await roster?.close();
  const thinking = chosen ? problems.attempt(() => runThinking(chosen, request)) : undefined;
  const model = thinking?.model;
  const skills = agent ? problems.attempt(() => loadSkills(request.home, agent.skills)) : undefined;
  const subagents = agent ? problems.attempt(() => loadSubagents(request.home, agent)) : undefined;
  // Boxed: "no instructions file" is undefined too. One that leads out of the workspace is skipped with a notice.
  const outside: string[] = [];
  const instructions = problems.attempt(() => ({
    value: loadProjectInstructions(request.workdir, (found) => outside.push(outsideLinkText(found))),
  }));
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
  const system = composeSystemPrompt(withSkills(agent.systemPrompt, skills), instructions.value?.text);
  const limits = resolveLimits(request.limitFlags, agent, config, request.tree);
  let boundSession: string | undefined;
  const delegation = subagentTools(extensions.tools, subagents, {
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
      ...printed,
      ...skipped,
      ...outside,
      ...modelWarnings(config, model),
      ...thinking.notices,
      ...skippedWorkspaceSkills(request.workdir),
      ...extensions.notices,
      ...(client?.notices ?? []),
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
