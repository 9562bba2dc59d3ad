/**
 * The composition root of a run: reads config and agent, resolves the model,
 * loads the agent's tools and hooks, opens or creates the session, and
 * wires real implementations into the engine's ports. Everything that can
 * be refused is checked before anything is written or sent.
 */
import { composeSystemPrompt, loadAgent, loadProjectInstructions, toAgentInfo, type Agent } from "../agents/index.ts";
import { loadConfig, type LoadedConfig } from "../config/index.ts";
import type { HookPort, ToolPort } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import type { ResolvedModel } from "../providers/index.ts";
import { createSession, openSession, type SessionFile } from "../sessions/index.ts";
import type { ContextData, FrontEnd } from "../tools/types.ts";
import { loadAgentExtensions, type AgentExtensions } from "./agent-extensions.ts";

/** What the user asked for on the command line. */
export interface RunRequest {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId?: string;
  sessionId?: string;
  modelRef?: string;
}

/** Everything a run needs, validated. */
export interface PreparedRun {
  config: LoadedConfig;
  agent: Agent;
  model: ResolvedModel;
  system: string;
  session: SessionFile;
  tools: ToolPort;
  hooks: HookPort;
  /** Diagnostics to show before the run (a user tool replacing a built-in). */
  notices: string[];
  /** Stops spare workers and anything else the run started. */
  close(): void;
}

/** What `prepareAgent` needs: an agent (and optionally a model) without a session. */
export interface AgentRequest {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId: string;
  /** Overrides the agent's model. */
  modelRef?: string;
}

/**
 * An agent ready to run, not yet tied to a session: the interactive chat
 * holds one while no session exists (a session is created with the first
 * message) and binds it to each session it moves to.
 */
export interface PreparedAgent {
  config: LoadedConfig;
  agent: Agent;
  model: ResolvedModel;
  system: string;
  tools: ToolPort;
  hooks: HookPort;
  /** Diagnostics to show before the run (a user tool replacing a built-in). */
  notices: string[];
  /** Sets the `ctx` data of every later tool and hook invocation to this session; returns it. */
  bind(session: SessionFile): ContextData;
  /** Stops spare workers and anything else the agent started. */
  close(): void;
}

/** The parts of the front end the extensions use for confirm and notify. */
export type Dialogs = Pick<FrontEnd, "confirm" | "notify">;

/** Validates the request and builds the run; throws RiendaError before writing anything when refused. */
export async function prepareRun(request: RunRequest, dialogs: Dialogs): Promise<PreparedRun> {
  const config = loadRequestConfig(request);
  const existing = request.sessionId
    ? openSession({ home: request.home, id: request.sessionId, workdir: request.workdir })
    : undefined;
  const agentId = request.agentId ?? existing?.agent;
  if (!agentId) throw new RiendaError("usage", "run: -a/--agent is required (the agents are the files of ~/.rienda/agents)");
  const modelRef = request.modelRef ?? (existing && !request.agentId ? existing.model : undefined);
  const prepared = await loadPreparedAgent(config, { ...request, agentId, ...(modelRef !== undefined ? { modelRef } : {}) }, dialogs);
  try {
    // Nothing is written until every check above has passed.
    const { agent, model } = prepared;
    const session = existing ?? createSession({ home: request.home, workdir: request.workdir, agent: agent.id, model: model.ref });
    if (existing) {
      existing.appendAgent(agent.id);
      existing.appendModel(model.ref);
    }
    prepared.bind(session);
    const { system, tools, hooks, notices, close } = prepared;
    return { config, agent, model, system, session, tools, hooks, notices, close };
  } catch (error) {
    prepared.close();
    throw error;
  }
}

/** Loads config, agent, model and extensions without touching any session; throws RiendaError when refused. */
export async function prepareAgent(request: AgentRequest, dialogs: Dialogs): Promise<PreparedAgent> {
  return loadPreparedAgent(loadRequestConfig(request), request, dialogs);
}

/** config.yaml as the request locates it: `--config`, else RIENDA_CONFIG, else ~/.rienda. */
function loadRequestConfig(request: Pick<AgentRequest, "configPath" | "env" | "home">): LoadedConfig {
  return loadConfig({ ...(request.configPath ? { flag: request.configPath } : {}), env: request.env, home: request.home });
}

async function loadPreparedAgent(config: LoadedConfig, request: AgentRequest, dialogs: Dialogs): Promise<PreparedAgent> {
  const agent = loadAgent(request.home, request.agentId);
  const model = config.resolveModel(request.modelRef ?? agent.model);
  const instructions = loadProjectInstructions(request.workdir);
  const system = composeSystemPrompt(agent.systemPrompt, instructions?.text);
  const extensions: AgentExtensions = await loadAgentExtensions({ home: request.home, agent, dialogs });
  return {
    config,
    agent,
    model,
    system,
    tools: extensions.tools,
    hooks: extensions.hooks,
    notices: extensions.notices,
    bind(session) {
      const contextData: ContextData = {
        workdir: request.workdir,
        session: { id: session.id, agentId: agent.id, modelId: model.ref, workdir: request.workdir },
        agent: toAgentInfo(agent),
        config: config.document,
      };
      extensions.bind(contextData);
      return contextData;
    },
    close: () => extensions.close(),
  };
}
