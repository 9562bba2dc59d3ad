/**
 * The ACP agent's methods (docs/acp.md): `initialize`, `session/new`,
 * `session/load`, `session/prompt`, `session/cancel`, `session/set_mode`
 * and `session/set_config_option`, over the official SDK's agent app. The
 * SDK checks every request's params against the schema before a handler
 * runs; a handler's refusal is a JSON-RPC error whose message is Rienda's
 * own (the file or the name at fault).
 */
import type * as Acp from "@agentclientprotocol/sdk";
import { isRiendaError, userMessage } from "../../errors.ts";
import type { Conversation } from "../../conversation/index.ts";
import { VERSION } from "../../version.ts";
import type { ConversationStart } from "../../conversation/index.ts";
import type { Dialogs } from "../../compose/index.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { AcpSession } from "./acp-session.ts";
import { clientMcpServers } from "./client-mcp-servers.ts";
import type { McpServerSettings } from "../../config/index.ts";
import { applySetting, configOptions, sessionModes } from "./session-settings.ts";

/** The SDK module, loaded by the command (only `rienda acp` loads it). */
export type AcpSdk = typeof Acp;

/** What the command line decided for every session of the connection. */
export interface AgentSettings {
  home: string;
  env: Record<string, string | undefined>;
  configPath?: string;
  /** `-a`: the agent of new sessions; else the first agent of ~/.rienda/agents. */
  agentId?: string;
  modelRef?: string;
  thinking?: string;
  autoApprove: boolean;
  /** Builds a conversation: createChatBackend, or a stand-in in tests. */
  open(start: ConversationStart, dialogs: Dialogs): Promise<Conversation>;
  /** The agent a new session runs when `-a` names none. */
  defaultAgent(): string;
}

/** The sessions of one connection, by id; closed together when the connection ends. */
export class AcpAgent {
  readonly #sdk: AcpSdk;
  readonly #settings: AgentSettings;
  readonly #sessions = new Map<string, AcpSession>();
  #client: Acp.AgentContext | undefined;
  #notices = false;

  constructor(sdk: AcpSdk, settings: AgentSettings) {
    this.#sdk = sdk;
    this.#settings = settings;
  }

  /** The agent app, its handlers registered. */
  app(): Acp.AgentApp {
    const { methods } = this.#sdk;
    return this.#sdk
      .agent({ name: "rienda" })
      .onConnect((connection) => void (this.#client = connection.client))
      .onRequest(methods.agent.initialize, ({ params }) => this.#initialize(params))
      .onRequest(methods.agent.session.new, ({ params }) => this.#guard(() => this.#newSession(params)))
      .onRequest(methods.agent.session.load, ({ params }) => this.#guard(() => this.#loadSession(params)))
      .onRequest(methods.agent.session.prompt, ({ params }) => this.#guard(() => this.#prompt(params)))
      .onRequest(methods.agent.session.setMode, ({ params }) => this.#guard(() => this.#setMode(params)))
      .onRequest(methods.agent.session.setConfigOption, ({ params }) =>
        this.#guard(() => this.#setConfigOption(params)),
      )
      .onNotification(methods.agent.session.cancel, ({ params }) => this.#sessions.get(params.sessionId)?.cancel());
  }

  /** Ends every turn and closes every conversation (their tools' processes end with them); `hurry` cuts afterRun hooks short. */
  async close(hurry: AbortSignal): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close(hurry)));
  }

  #initialize(params: Acp.InitializeRequest): Acp.InitializeResponse {
    this.#notices = params.clientCapabilities?.session?.notices != null;
    return {
      // The one version this agent speaks; a client asking for another decides whether to go on.
      protocolVersion: this.#sdk.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: {},
      },
      agentInfo: { name: "rienda", title: "Rienda", version: VERSION },
      authMethods: [],
    };
  }

  async #newSession(params: Acp.NewSessionRequest): Promise<Acp.NewSessionResponse> {
    const { agentId, modelRef, thinking } = this.#settings;
    const servers = clientMcpServers(params.mcpServers);
    const start = this.#start(
      params.cwd,
      {
        agentId: agentId ?? this.#settings.defaultAgent(),
        ...(modelRef ? { modelRef } : {}),
        ...(thinking ? { thinking } : {}),
      },
      servers.settings,
    );
    const session = await this.#open(start);
    for (const notice of servers.notices) session.noticeNextTurn(notice);
    return {
      sessionId: session.id,
      modes: sessionModes(session.backend),
      configOptions: await configOptions(session.backend),
    };
  }

  async #loadSession(params: Acp.LoadSessionRequest): Promise<Acp.LoadSessionResponse> {
    // A session this connection has open already holds the session's lock: it is replayed as it is.
    const servers = clientMcpServers(params.mcpServers);
    const session =
      this.#sessions.get(params.sessionId) ??
      (await this.#open(this.#start(params.cwd, { sessionId: params.sessionId }, servers.settings)));
    session.replay();
    for (const notice of servers.notices) session.noticeNextTurn(notice);
    return { modes: sessionModes(session.backend), configOptions: await configOptions(session.backend) };
  }

  async #prompt(params: Acp.PromptRequest): Promise<Acp.PromptResponse> {
    const end = await this.#session(params.sessionId).prompt(params.prompt);
    if ("failure" in end) throw new this.#sdk.RequestError(-32603, end.failure);
    return { stopReason: end.stopReason };
  }

  async #setMode(params: Acp.SetSessionModeRequest): Promise<Acp.SetSessionModeResponse> {
    await this.#set(params.sessionId, "agent", params.modeId);
    return {};
  }

  async #setConfigOption(params: Acp.SetSessionConfigOptionRequest): Promise<Acp.SetSessionConfigOptionResponse> {
    if (typeof params.value !== "string")
      throw new this.#sdk.RequestError(
        -32602,
        `config option "${params.configId}" takes one of its listed values, not ${JSON.stringify(params.value)}`,
      );
    const options = await this.#set(params.sessionId, params.configId, params.value);
    return { configOptions: options };
  }

  /** A switch: refused while a turn runs; tells the client the new state (mode, options) and any notice. */
  async #set(sessionId: string, id: string, value: string): Promise<Acp.SessionConfigOption[]> {
    const session = this.#session(sessionId);
    if (session.busy)
      throw new this.#sdk.RequestError(-32602, "wait for the prompt to end (or cancel it) before switching");
    if (session.switching)
      throw new this.#sdk.RequestError(-32602, "another switch is under way in this session: wait for its answer");
    session.switching = true;
    let notices: string[];
    try {
      notices = await applySetting(session.backend, id, value);
    } finally {
      session.switching = false;
    }
    for (const notice of notices)
      session.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${notice}\n` } });
    const options = await configOptions(session.backend);
    session.send({ sessionUpdate: "current_mode_update", currentModeId: session.backend.status().agent });
    session.send({ sessionUpdate: "config_option_update", configOptions: options });
    return options;
  }

  #start(
    cwd: string,
    choice: Pick<ConversationStart, "agentId" | "modelRef" | "thinking" | "sessionId">,
    servers: McpServerSettings[],
  ): ConversationStart {
    const { home, env, configPath } = this.#settings;
    return {
      home,
      env,
      workdir: resolveWorkdir(cwd),
      workdirGiven: true,
      ...(configPath ? { configPath } : {}),
      ...(servers.length > 0 ? { clientMcpServers: servers } : {}),
      ...choice,
    };
  }

  async #open(start: ConversationStart): Promise<AcpSession> {
    const session = await AcpSession.open(
      (dialogs) => this.#settings.open(start, dialogs),
      (sessionId) => ({
        update: (update) =>
          void this.#client?.notify("session/update", { sessionId: sessionId(), update }).catch(() => undefined),
        request: (params, cancel) =>
          this.#client!.request("session/request_permission", params, {
            cancellationSignal: cancel,
            stopWaitingOnCancel: true,
          }),
      }),
      { workdir: start.workdir, autoApprove: this.#settings.autoApprove, notices: this.#notices },
    );
    this.#sessions.set(session.id, session);
    return session;
  }

  #session(id: string): AcpSession {
    const session = this.#sessions.get(id);
    if (!session)
      throw new this.#sdk.RequestError(
        -32002,
        `no session "${id}" is open on this connection (session/new or session/load opens one)`,
      );
    return session;
  }

  /** Runs a handler; a RiendaError becomes a JSON-RPC error carrying its message. */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof this.#sdk.RequestError) throw error;
      throw new this.#sdk.RequestError(isRiendaError(error) ? -32602 : -32603, userMessage(error));
    }
  }
}
