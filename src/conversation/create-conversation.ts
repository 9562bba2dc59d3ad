/**
 * The conversation behind every front end (the line chat, the full-screen
 * chat, `rpc`): the prepared agent, the session, the engine, the queue of
 * what the user sends while a turn runs. Each message is one engine run
 * over the same session file, so beforeRun/afterRun hooks fire per message.
 * A new conversation's session file is created with its first message, so
 * opening and leaving writes nothing.
 */
import { listAgents } from "../agents/index.ts";
import { checkAttachmentsFit, readFileAttachment } from "../attachments/index.ts";
import { compactNow, createCompactor, prepareAgent, sessionWorkdir, type Dialogs } from "../compose/index.ts";
import { runAgent, type ModelPort, type RunOutcome } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import { createModelClient, type AttachmentBlock } from "../providers/index.ts";
import { createSession, listSessions, openSession } from "../sessions/index.ts";
import { AgentHolder, agentRequest, type AgentChanges } from "./agent-holder.ts";
import { branchMessages, branchStats } from "./branch-view.ts";
import { attachmentRow, historyOf } from "./history.ts";
import { gitBranchOf } from "./git-branch.ts";
import { modelCommands } from "./model-switching.ts";
import { rosterOf } from "./model-picks.ts";
import { modelRows, type ModelRow } from "./model-rows.ts";
import { sessionTreeCommands } from "./session-branches.ts";
import { TurnQueue, type QueueKind } from "./turn-queue.ts";
import type { AttachmentRow, Conversation, ConversationStart, TurnIo } from "./types.ts";

/** Opens the conversation `start` describes: the session to continue (if any) and its agent prepared. */
export async function createConversation(start: ConversationStart, dialogs: Dialogs): Promise<Conversation> {
  /** Shown once, with the first notices: the conversation moved to the continued session's workspace; a pick state.json could not record. */
  const onceNotices: string[] = [...(start.notices ?? [])];
  const holder = await openHolder(start, dialogs, onceNotices);
  const modelPort = createModelClient();
  const queue = new TurnQueue();
  /** Files `/file` (or a prompt's files) attached to the next message. */
  let pending: AttachmentBlock[] = [];
  const takePending = (): AttachmentBlock[] => pending.splice(0);
  return {
    ...sessionCommands(start, holder, queue),
    ...switchCommands(start, holder, onceNotices),
    runTurn: (prompt, io) => runTurn(holder, modelPort, queue, { prompt, attachments: takePending() }, io),
    steer: (text, attachments = []) => enqueue("steer", text, attachments),
    followUp: (text, attachments = []) => enqueue("follow_up", text, attachments),
    withdraw: (id) => queue.withdraw(id),
    queued: () => queue.list().map(({ id, kind, text }) => ({ id, kind, text })),
    nextFollowUp() {
      const next = queue.nextFollowUp();
      if (!next) return undefined;
      pending = [...(next.attachments ?? [])];
      return { id: next.id, text: next.text };
    },
    clearQueue: () => queue.clear(),
    async compact(io) {
      if (!holder.session) return false;
      return compactNow(
        { session: holder.session, config: holder.prepared.config, model: holder.prepared.model, modelPort },
        io,
      );
    },
    attach: (path) => attachBlock(readFileAttachment(path, start.workdir)),
    readAttachment: (path) => readFileAttachment(path, start.workdir),
    attachBlock,
    pendingAttachments: () => pending.map(attachmentRow),
    dropAttachments: () => void (pending = []),
    history: () => (holder.session ? historyOf(holder.session) : []),
    messages: () => (holder.session ? branchMessages(holder.session) : []),
    stats: () => branchStats(holder.session, holder.prepared.model.contextWindow),
    notices: () => [...onceNotices.splice(0), ...holder.notices.splice(0), ...holder.prepared.notices],
    gitBranch: () => gitBranchOf(start.workdir),
    rename(title) {
      if (!holder.session)
        throw new RiendaError("session", "nothing to rename yet: the session starts with your first message");
      holder.session.appendTitle(title);
    },
    close: () => {
      void holder.prepared.close();
      holder.session?.closeDiscardingUnused();
    },
  };

  /** Queues a message whose files fit the model; its id in the queue. */
  function enqueue(kind: QueueKind, text: string, attachments: AttachmentBlock[]): number {
    checkAttachmentsFit(attachments, holder.prepared.model);
    return queue.add(kind, { text, ...(attachments.length > 0 ? { attachments } : {}) });
  }

  /** Attaches `block` to the next message, checked with what is already attached. */
  function attachBlock(block: AttachmentBlock): AttachmentRow {
    checkAttachmentsFit([...pending, block], holder.prepared.model);
    pending.push(block);
    return attachmentRow(block);
  }
}

/** The agent prepared for `start`, with the session to continue opened (its lock held) and adopted. */
async function openHolder(start: ConversationStart, dialogs: Dialogs, onceNotices: string[]): Promise<AgentHolder> {
  const request = (agentId: string, changes: AgentChanges) => agentRequest(start, agentId, changes);
  if (!start.sessionId) {
    return new AgentHolder(
      start,
      dialogs,
      await prepareAgent(request(start.agentId!, { modelRef: start.modelRef, thinking: start.thinking }), dialogs),
    );
  }
  const existing = openSession({ home: start.home, id: start.sessionId, workdir: start.workdir });
  try {
    if (!start.workdirGiven) {
      const moved = sessionWorkdir(existing, start.workdir);
      start.workdir = moved.workdir;
      if (moved.notice) onceNotices.push(moved.notice);
    }
    // As `run -s`: the branch's model and level, unless -m, -a or --thinking says otherwise.
    const modelRef = start.modelRef ?? (start.agentId ? undefined : existing.model);
    const branch = { sessionModel: existing.model, sessionThinking: existing.thinking };
    const prepared = await prepareAgent(
      request(start.agentId ?? existing.agent, { modelRef, thinking: start.thinking, ...branch }),
      dialogs,
    );
    return new AgentHolder(start, dialogs, prepared, existing);
  } catch (error) {
    existing.close();
    throw error;
  }
}

/** One engine run over the current session: the prompt, then what the queue steers in. */
function runTurn(
  holder: AgentHolder,
  modelPort: ModelPort,
  queue: TurnQueue,
  input: { prompt: string; attachments: AttachmentBlock[] },
  io: TurnIo,
): Promise<RunOutcome> {
  const session = holder.session;
  if (!session) throw new RiendaError("internal", "a turn needs a session");
  // After /tree the branch may say another agent or model than the one this turn runs: it records this one.
  holder.recordSwitches();
  const prepared = holder.prepared;
  const compactor = createCompactor({ session, config: prepared.config, model: prepared.model, modelPort });
  return runAgent({
    prompt: input.prompt,
    attachments: input.attachments,
    system: prepared.system,
    systemExtra: prepared.systemExtra,
    model: prepared.model,
    agentId: prepared.agent.id,
    modelPort,
    tools: prepared.tools,
    hooks: prepared.hooks,
    session,
    ...(compactor ? { compactor } : {}),
    steering: queue.steering,
    emit: io.emit,
    signal: io.signal,
    finalSignal: io.finalSignal,
    // max_turns per message; one cost budget for the whole conversation with this agent (docs/chat.md).
    limits: prepared.limits.run,
  });
}

/** The session's part: creating it, leaving it, other sessions, branches. */
function sessionCommands(start: ConversationStart, holder: AgentHolder, queue: TurnQueue) {
  const tree = sessionTreeCommands({
    home: start.home,
    workdir: () => start.workdir,
    session: () => holder.session,
    replaceSession: (next) => holder.moveTo(next),
  });
  return {
    ...tree,
    // A fork or a move on the tree runs what the branch recorded (its agent, model and level).
    // A refusal (no session yet, an unknown entry) is thrown at once, before anything is written.
    fork(at?: string, signal?: AbortSignal): Promise<string> {
      const id = tree.fork(at);
      return holder.followBranch(signal).then(() => id);
    },
    continueAt(id: string, signal?: AbortSignal): Promise<{ prompt?: string }> {
      const moved = tree.continueAt(id);
      return holder.followBranch(signal).then(() => moved);
    },
    ensureSession() {
      if (holder.session) return { id: holder.session.id, created: false };
      const prepared = holder.prepared;
      const session = createSession({
        home: start.home,
        workdir: start.workdir,
        agent: prepared.agent.id,
        model: prepared.model.ref,
      });
      holder.session = session;
      prepared.bind(session);
      return { id: session.id, created: true };
    },
    // A session that received nothing (its first turn interrupted in the beforeRun hooks) is not kept.
    newSession() {
      // A level the branch recorded goes on as the user's choice: the new session records it too.
      if (holder.session?.thinking !== undefined) holder.prepared.thinkingChosen = true;
      holder.session?.closeDiscardingUnused();
      holder.session = undefined;
      queue.clear();
    },
    listSessions: () =>
      listSessions({ home: start.home, workdir: start.workdir })
        .filter((s) => s.parentSession === undefined)
        .map((s) => ({
          id: s.id,
          updatedAt: s.updatedAt,
          agent: s.agent,
          model: s.model,
          title: s.problem === null ? s.title : `! cannot be loaded: ${s.problem}`,
          messageCount: s.messageCount,
        })),
    async resume(id: string, signal?: AbortSignal): Promise<void> {
      // The session open here is already ours (its lock is held): reopening it would meet our own lock.
      const current = holder.session;
      const target = current?.id === id ? current : openSession({ home: start.home, id, workdir: start.workdir });
      try {
        const next = await holder.prepare(holder.branchRequest(target), signal);
        holder.session = target;
        holder.replace(next);
      } catch (error) {
        if (target !== current) target.close();
        throw error;
      }
      if (current && current !== target) current.closeDiscardingUnused();
      queue.clear();
    },
  };
}

/** Agent, model and thinking switches; the agents, tools and hooks on offer. */
function switchCommands(start: ConversationStart, holder: AgentHolder, onceNotices: string[]) {
  const models = modelCommands({
    where: start,
    rememberPicks: start.rememberPicks === true,
    prepared: () => holder.prepared,
    session: () => holder.session,
    async switchAgentTo(changes, signal) {
      holder.replace(await holder.prepare(holder.request(holder.prepared.agent.id, changes), signal));
    },
    setPrepared(next) {
      holder.prepared = next;
    },
    notice: (text) => onceNotices.push(text),
  });
  return {
    ...models,
    status: () => {
      const prepared = holder.prepared;
      return {
        agent: prepared.agent.id,
        model: prepared.model.ref,
        thinking: prepared.thinking,
        sessionId: holder.session?.id ?? null,
        workdir: start.workdir,
        ...(prepared.model.contextWindow !== undefined ? { contextWindow: prepared.model.contextWindow } : {}),
      };
    },
    // An agent without a model keeps the conversation's, and the level when that model offers it.
    async switchAgent(id: string, signal?: AbortSignal): Promise<void> {
      const current = holder.prepared;
      holder.replace(
        await holder.prepare(
          holder.request(id, { sessionModel: current.model.ref, sessionThinking: current.thinking }),
          signal,
        ),
      );
    },
    async modelRows(): Promise<ModelRow[]> {
      const roster = rosterOf(start);
      try {
        return modelRows(await roster.all());
      } finally {
        await roster.close();
      }
    },
    listAgents: () =>
      listAgents(start.home).agents.map((a) => ({ id: a.id, description: a.description, model: a.model })),
    tools: () => holder.prepared.tools.specs().map((t) => ({ name: t.name, description: t.description })),
    hooks: () => [...holder.prepared.hooks.names],
  };
}
