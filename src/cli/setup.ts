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
  autoApprove: boolean;
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
  contextData: ContextData;
  /** Diagnostics to show before the run (a user tool replacing a built-in). */
  notices: string[];
  /** Stops spare workers and anything else the run started. */
  close(): void;
}

/** The parts of the front end the extensions use for confirm and notify. */
export type Dialogs = Pick<FrontEnd, "confirm" | "notify">;

/** Validates the request and builds the run; throws RiendaError before writing anything when refused. */
export async function prepareRun(request: RunRequest, dialogs: Dialogs): Promise<PreparedRun> {
  const config = loadConfig({ ...(request.configPath ? { flag: request.configPath } : {}), env: request.env, home: request.home });
  const existing = request.sessionId
    ? openSession({ home: request.home, id: request.sessionId, workdir: request.workdir })
    : undefined;
  const agentId = request.agentId ?? existing?.agent;
  if (!agentId) throw new RiendaError("usage", "run: -a/--agent is required (the agents are the files of ~/.rienda/agents)");
  const agent = loadAgent(request.home, agentId);
  const modelRef = request.modelRef ?? (existing && !request.agentId ? existing.model : agent.model);
  const model = config.resolveModel(modelRef);
  const instructions = loadProjectInstructions(request.workdir);
  const system = composeSystemPrompt(agent.systemPrompt, instructions?.text);

  let extensions: AgentExtensions | undefined;
  try {
    extensions = await loadAgentExtensions({ home: request.home, agent, dialogs });
    // Nothing is written until every check above has passed.
    const session = existing ?? createSession({ home: request.home, workdir: request.workdir, agent: agent.id, model: model.ref });
    if (existing) {
      existing.appendAgent(agent.id);
      existing.appendModel(model.ref);
    }
    const contextData: ContextData = {
      workdir: request.workdir,
      session: { id: session.id, agentId: agent.id, modelId: model.ref, workdir: request.workdir },
      agent: toAgentInfo(agent),
      config: config.document,
    };
    extensions.bind(contextData);
    const loaded = extensions;
    return { config, agent, model, system, session, tools: loaded.tools, hooks: loaded.hooks, contextData, notices: loaded.notices, close: () => loaded.close() };
  } catch (error) {
    extensions?.close();
    throw error;
  }
}
