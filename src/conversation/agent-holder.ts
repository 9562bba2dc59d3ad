/**
 * The agent a conversation runs and the session it writes, kept in step:
 * every switch (agent, model, thinking level) is recorded on the session's
 * active branch, and moving to another branch (a fork, `/tree`, another
 * session) prepares what that branch says, so a branch always runs its own
 * agent, model and level (docs/conversation.md).
 */
import { untilInterrupted } from "../abort-race.ts";
import { prepareAgent, type AgentRequest, type Dialogs, type PreparedAgent } from "../compose/index.ts";
import { messageOf } from "../errors.ts";
import type { SessionFile } from "../sessions/index.ts";
import { recordThinking, type SwitchChanges } from "./model-switching.ts";
import type { ConversationStart } from "./types.ts";

/** What a request changes from the conversation's defaults. */
export type AgentChanges = SwitchChanges & Pick<AgentRequest, "thinking">;

/** The request that prepares `agentId` where the conversation runs, with `changes`. */
export function agentRequest(start: ConversationStart, agentId: string, changes: AgentChanges = {}): AgentRequest {
  return {
    home: start.home,
    env: start.env,
    workdir: start.workdir,
    ...(start.configPath ? { configPath: start.configPath } : {}),
    ...(start.sandbox !== undefined ? { sandbox: start.sandbox } : {}),
    ...(start.clientMcpServers ? { clientMcpServers: start.clientMcpServers } : {}),
    agentId,
    ...changes,
  };
}

/** Holds the prepared agent and the session; every change goes through it. */
export class AgentHolder {
  prepared: PreparedAgent;
  session: SessionFile | undefined;
  readonly #start: ConversationStart;
  readonly #dialogs: Dialogs;
  /** Notices for the front end's next batch (a branch whose model could not be prepared). */
  readonly notices: string[] = [];

  constructor(start: ConversationStart, dialogs: Dialogs, prepared: PreparedAgent, session?: SessionFile) {
    this.#start = start;
    this.#dialogs = dialogs;
    this.prepared = prepared;
    if (session) this.adopt(session);
  }

  /** The request that prepares `agentId` in this conversation's place, with `changes`. */
  request(agentId: string, changes: AgentChanges = {}): AgentRequest {
    return agentRequest(this.#start, agentId, changes);
  }

  /** The request that prepares what `session`'s active branch records: its agent, model and level. */
  branchRequest(session: SessionFile): AgentRequest {
    return this.request(session.agent, {
      modelRef: session.model,
      sessionModel: session.model,
      sessionThinking: session.thinking,
    });
  }

  /**
   * Prepares an agent for a switch the user may give up on (Ctrl-C): the
   * signal ends the start of MCP servers; setup that cannot be ended (a
   * module that hangs while loading) is left behind, and closed when it
   * finishes, so no server it started outlives the switch.
   */
  async prepare(request: AgentRequest, signal: AbortSignal | undefined): Promise<PreparedAgent> {
    const work = prepareAgent(signal ? { ...request, signal } : request, this.#dialogs);
    if (!signal) return work;
    try {
      return await untilInterrupted(work, signal);
    } catch (error) {
      if (signal.aborted)
        work.then(
          (late) => late.close(),
          () => undefined,
        );
      throw error;
    }
  }

  /** Makes `next` the current agent (closing the previous one) and records the switch in the session. */
  replace(next: PreparedAgent): void {
    const previous = this.prepared;
    this.prepared = next;
    if (this.session) this.adopt(this.session);
    void previous.close();
  }

  /** Makes `session` current, tied to the agent: the switches it lacks recorded, `ctx` bound to it. */
  adopt(session: SessionFile): SessionFile {
    this.session = session;
    this.recordSwitches();
    this.prepared.bind(session);
    return session;
  }

  /** Makes `session` current without recording anything on it: a fork, whose branch decides what runs next (followBranch). */
  moveTo(session: SessionFile): void {
    this.session = session;
    this.prepared.bind(session);
  }

  /** Writes on the active branch the agent, model and thinking level the agent runs with, where the branch says otherwise. */
  recordSwitches(): void {
    const session = this.session;
    if (!session) return;
    session.appendAgent(this.prepared.agent.id);
    session.appendModel(this.prepared.model.ref);
    recordThinking(session, this.prepared);
  }

  /**
   * After the session moved to another branch (or another session): runs
   * what the branch records, preparing the agent again when its agent,
   * model or level differ. A branch whose model cannot be prepared now (a
   * provider gone) keeps the current agent, and a notice says so.
   */
  async followBranch(signal?: AbortSignal): Promise<void> {
    const session = this.session;
    if (!session) return;
    const wanted = { agent: session.agent, model: session.model, thinking: session.thinking };
    const current = this.prepared;
    if (
      wanted.agent === current.agent.id &&
      wanted.model === current.model.ref &&
      (wanted.thinking === undefined || wanted.thinking === current.thinking)
    )
      return;
    try {
      this.replace(await this.prepare(this.branchRequest(session), signal));
    } catch (error) {
      if (signal?.aborted) throw error;
      this.notices.push(
        `this branch ran ${wanted.agent} with ${wanted.model}, which cannot be prepared now (${messageOf(error)}); going on with ${current.agent.id} and ${current.model.ref}`,
      );
      this.recordSwitches();
    }
  }
}
