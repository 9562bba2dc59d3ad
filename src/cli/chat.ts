/**
 * `rienda`: the interactive chat in a terminal (contract.md §4). Picks or
 * takes the agent, opens the session to continue (`-c`, `-s`), then hands
 * the terminal to the chat screen with a backend built here. Each message
 * is one engine run over the same session file, so beforeRun/afterRun
 * hooks fire per message. A new conversation's session file is created
 * with its first message, so opening and leaving the chat writes nothing.
 * Exit 0 when the user quits, 130 when a signal ends the chat, 1 when it
 * cannot start (no terminal, bad flags, unknown agent, ...).
 */
import { defineCommand } from "citty";
import { listAgents } from "../agents/index.ts";
import { loadConfig } from "../config/index.ts";
import { runAgent } from "../engine/index.ts";
import { RiendaError, userMessage } from "../errors.ts";
import { createModelClient } from "../providers/index.ts";
import { createSession, listSessions, openSession, type SessionFile } from "../sessions/index.ts";
import { createChatScreen, createChatStyle, type ChatBackend, type ChatScreen, type ChatScreenOptions } from "../ui/chat/index.ts";
import { VERSION } from "../version.ts";
import { exitWhenFlushed } from "./exit.ts";
import { INTERRUPTED_EXIT, interrupts } from "./interrupts.ts";
import { untilInterrupted } from "./until-interrupted.ts";
import { resolveWorkdir } from "./resolve-workdir.ts";
import { runFlags } from "./run-flags.ts";
import { compactNow, createCompactor } from "./compactor.ts";
import { sessionTreeCommands } from "./chat-session-tree.ts";
import { runSessionFlags } from "./run-session.ts";
import { prepareAgent, type AgentRequest, type Dialogs, type PreparedAgent } from "./compose/index.ts";
import { pickStartModel } from "./chat-models.ts";
import { modelCommands, recordThinking, type SwitchChanges } from "./chat-model-commands.ts";
import { homeDir } from "./home-dir.ts";
import { sessionWorkdir } from "./session-workdir.ts";
import { assertKnownFlags } from "./strict-args.ts";
import { stderrForPeople } from "./for-people.ts";
import { checkAttachmentsFit, readFileAttachment } from "../attachments/index.ts";
import type { AttachmentBlock } from "../providers/index.ts";
import { attachmentRow, historyOf } from "./chat-rows.ts";

/** The flags of a bare `rienda` (also shown by `rienda --help`). */
const chatArgs = {
  agent: { type: "string", alias: "a", description: "Agent id (without it, pick one from a list)" },
  continue: { type: "boolean", alias: "c", description: "Continue this workspace's latest session" },
  fork: runSessionFlags.fork,
  at: runSessionFlags.at,
  plain: { type: "boolean", description: "The line chat instead of the full-screen one (also with TERM=dumb)" },
  ...runFlags,
} as const;

/** What the chat (and `rienda rpc`) starts from, read from the flags. */
export interface ChatStart {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId?: string;
  modelRef?: string;
  /** `--thinking LEVEL` for the first agent prepared. */
  thinking?: string;
  /** `--sandbox MODE`, for every agent the conversation prepares. */
  sandbox?: string;
  sessionId?: string;
  /** -C was given: a continued session runs there, not in its recorded workspace. */
  workdirGiven: boolean;
  /** The chat records model and thinking picks in state.json; rpc does not. */
  rememberPicks?: boolean;
  /** Shown with the conversation's first notices (a pick state.json could not record). */
  notices?: string[];
}

export default defineCommand({
  meta: { name: "rienda", description: "Chat with an agent in the terminal." },
  args: chatArgs,
  async run({ rawArgs }) {
    const watcher = interrupts();
    let backend: ChatBackend | undefined;
    let code: number;
    try {
      code = await chat(rawArgs, (created) => (backend = created));
    } catch (error) {
      if (watcher.interrupted) {
        // A signal before the conversation started (setup, the agent picker).
        code = watcher.cause === "SIGHUP" ? HANGUP_EXIT : watcher.exitCode;
      } else {
        // One line per problem, each prefixed, as every command prints them.
        stderrForPeople().write(`${userMessage(error).split("\n").map((line) => `rienda: ${line}`).join("\n")}\n`);
        code = 1;
      }
    } finally {
      screenRef?.close?.();
      (backend as ChatBackend | undefined)?.close();
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    }
    await exitWhenFlushed(code);
  },
});

/** The screen of the chat running, so it gives the terminal back however the chat ends. */
let screenRef: ChatScreen | undefined;

/** Exit status when the terminal hung up (SIGHUP): 128 + 1. */
const HANGUP_EXIT = 129;

/** Runs the chat; returns the exit code. `started` receives the backend so the caller can close it whatever happens. */
async function chat(rawArgs: string[], started: (backend: ChatBackend) => void): Promise<number> {
  const parsed = assertKnownFlags(rawArgs, chatArgs, "rienda").values;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new RiendaError("usage", "interactive chat needs a terminal; use rienda run -a AGENT -p PROMPT (see rienda run --help)");
  }
  if (parsed.continue && parsed.session !== undefined) throw new RiendaError("usage", "use -c or -s ID, not both");
  const continuing = parsed.continue === true || parsed.session !== undefined;
  if ((parsed.fork || parsed.at !== undefined) && !continuing) throw new RiendaError("usage", `${parsed.fork ? "--fork" : "--at"} needs the session: -s ID or -c`);
  const start: ChatStart = {
    home: homeDir(),
    env: process.env,
    workdir: resolveWorkdir(parsed.workdir),
    workdirGiven: parsed.workdir !== undefined,
    ...(parsed.config !== undefined ? { configPath: parsed.config } : {}),
    ...(parsed.agent !== undefined ? { agentId: parsed.agent } : {}),
    ...(parsed.model !== undefined ? { modelRef: parsed.model } : {}),
    ...(parsed.thinking !== undefined ? { thinking: parsed.thinking } : {}),
    ...(parsed.sandbox !== undefined ? { sandbox: parsed.sandbox } : {}),
    rememberPicks: true,
  };
  // A broken config fails before the user is asked anything.
  loadConfig({ ...(start.configPath ? { flag: start.configPath } : {}), env: start.env, home: start.home });
  if (parsed.session !== undefined) start.sessionId = parsed.session;
  else if (parsed.continue) start.sessionId = latestSession(start);

  const screenOptions: ChatScreenOptions = {
    terminal: { input: process.stdin, output: process.stdout },
    style: createChatStyle(true),
    autoApprove: Boolean(parsed["auto-approve"]),
    version: VERSION,
    bracketedPaste: process.env.TERM !== "dumb",
    onHardExit: () => {
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
      void exitWhenFlushed(130);
    },
  };
  // The full-screen chat's library is loaded only here, so no other command pays for it (docs/chat.md).
  const plain = parsed.plain === true || process.env.TERM === "dumb";
  const screen = plain ? createChatScreen(screenOptions) : (await import("../ui/tui/index.ts")).createTuiScreen(screenOptions);
  screenRef = screen;
  const watcher = interrupts();
  if (!start.sessionId && !start.agentId) {
    const agentId = await untilInterrupted(pickAgent(start.home, screen), watcher.signal);
    if (agentId === undefined) return 0;
    start.agentId = agentId;
  }
  // An agent without a model, and nothing that decides one: the user picks (docs/chat.md).
  if (!start.sessionId && !(await untilInterrupted(pickStartModel(start, start.agentId!, screen), watcher.signal))) return 0;
  const backend = await untilInterrupted(createChatBackend(start, screen.dialogs), watcher.signal);
  started(backend);
  // As `rienda run --at/--fork` (docs/sessions.md): checked before anything is written.
  if (parsed.at !== undefined) backend.continueAt(parsed.at);
  if (parsed.fork) backend.fork();
  // The terminal is gone: nothing can be shown or answered any more, and a
  // read or write on the dead terminal must not keep the process alive.
  // Tools and their process groups are ended; the session file holds only
  // whole entries, so it stays continuable.
  const hangUp = () => {
    backend.close();
    process.exit(HANGUP_EXIT);
  };
  const stopWatching = watcher.listen((cause) => (cause === "SIGHUP" ? hangUp() : screen.stop()));
  try {
    const end = await screen.run(backend, { resumed: start.sessionId !== undefined });
    return end === "signal" ? INTERRUPTED_EXIT : 0;
  } finally {
    stopWatching();
  }
}

/** The id of this workspace's most recent session; an error when there is none. */
function latestSession(start: ChatStart): string {
  // A subagent's session is not one to continue: it belongs to its parent's run.
  const [latest] = listSessions({ home: start.home, workdir: start.workdir }).filter((s) => s.parentSession === undefined);
  if (!latest) throw new RiendaError("session", `no session to continue in this workspace (${start.workdir})`);
  return latest.id;
}

async function pickAgent(home: string, screen: ChatScreen): Promise<string | undefined> {
  const { agents, problems } = listAgents(home);
  for (const problem of problems) stderrForPeople().write(`rienda: ${problem.message}\n`);
  if (agents.length === 0) throw new RiendaError("agent", "no agents in ~/.rienda/agents (rienda init writes a starter agent)");
  return screen.pickAgent(agents.map((a) => ({ id: a.id, description: a.description, model: a.model })));
}

/** The conversation behind the screen: the prepared agent, the session, and the engine. */
export async function createChatBackend(start: ChatStart, dialogs: Dialogs): Promise<ChatBackend> {
  const modelPort = createModelClient();
  const agentRequest = (agentId: string, changes: SwitchChanges & Pick<AgentRequest, "thinking"> = {}): AgentRequest => ({
    home: start.home,
    env: start.env,
    workdir: start.workdir,
    ...(start.configPath ? { configPath: start.configPath } : {}),
    ...(start.sandbox !== undefined ? { sandbox: start.sandbox } : {}),
    agentId,
    ...changes,
  });

  let session: SessionFile | undefined;
  let prepared: PreparedAgent;
  /** Files `/file` attached to the next message. */
  let pending: AttachmentBlock[] = [];
  /** Shown once, with the first notices: the chat moved to the continued session's workspace; a pick state.json could not record. */
  const onceNotices: string[] = [...(start.notices ?? [])];
  if (start.sessionId) {
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
      prepared = await prepareAgent(agentRequest(start.agentId ?? existing.agent, { modelRef, thinking: start.thinking, ...branch }), dialogs);
    } catch (error) {
      existing.close();
      throw error;
    }
    session = adopt(existing, prepared);
  } else {
    prepared = await prepareAgent(agentRequest(start.agentId!, { modelRef: start.modelRef, thinking: start.thinking }), dialogs);
  }

  /**
   * Prepares an agent for a switch the user may give up on (Ctrl-C): the
   * signal ends the start of MCP servers; setup that cannot be ended (a
   * module that hangs while loading) is left behind, and closed when it
   * finishes, so no server it started outlives the switch.
   */
  async function prepareSwitch(request: AgentRequest, signal: AbortSignal | undefined): Promise<PreparedAgent> {
    const work = prepareAgent(signal ? { ...request, signal } : request, dialogs);
    if (!signal) return work;
    try {
      return await untilInterrupted(work, signal);
    } catch (error) {
      if (signal.aborted) work.then((late) => late.close(), () => undefined);
      throw error;
    }
  }

  /** Makes `next` the current agent (closing the previous one) and records the switch in the session. */
  function replace(next: PreparedAgent): void {
    const previous = prepared;
    prepared = next;
    if (session) adopt(session, next);
    previous.close();
  }

  const models = modelCommands({
    where: start,
    rememberPicks: start.rememberPicks === true,
    prepared: () => prepared,
    session: () => session,
    async switchAgentTo(changes, signal) {
      replace(await prepareSwitch(agentRequest(prepared.agent.id, changes), signal));
    },
    setPrepared(next) {
      prepared = next;
    },
    notice: (text) => onceNotices.push(text),
  });

  return {
    status: () => ({
      agent: prepared.agent.id,
      model: prepared.model.ref,
      thinking: prepared.thinking,
      sessionId: session?.id ?? null,
      workdir: start.workdir,
      ...(prepared.model.contextWindow !== undefined ? { contextWindow: prepared.model.contextWindow } : {}),
    }),
    ensureSession() {
      if (session) return { id: session.id, created: false };
      session = createSession({ home: start.home, workdir: start.workdir, agent: prepared.agent.id, model: prepared.model.ref });
      prepared.bind(session);
      return { id: session.id, created: true };
    },
    runTurn(prompt, io) {
      if (!session) throw new RiendaError("internal", "a turn needs a session");
      // After /tree the branch may say another agent or model than the one this turn runs: it records this one.
      recordSwitches(session, prepared);
      const compactor = createCompactor({ session, config: prepared.config, model: prepared.model, modelPort });
      const attachments = pending;
      pending = [];
      return runAgent({
        prompt,
        attachments,
        system: prepared.system,
        systemExtra: prepared.systemExtra,
        model: prepared.model,
        agentId: prepared.agent.id,
        modelPort,
        tools: prepared.tools,
        hooks: prepared.hooks,
        session,
        ...(compactor ? { compactor } : {}),
        emit: io.emit,
        signal: io.signal,
        finalSignal: io.finalSignal,
        // max_turns per message; one cost budget for the whole chat with this agent (docs/chat.md).
        limits: prepared.limits.run,
      });
    },
    // A session that received nothing (its first turn interrupted in the beforeRun hooks) is not kept.
    newSession() {
      // A level the branch recorded goes on as the user's choice: the new session records it too.
      if (session?.thinking !== undefined) prepared.thinkingChosen = true;
      session?.closeDiscardingUnused();
      session = undefined;
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
    async resume(id, signal) {
      // The session open here is already ours (its lock is held): reopening it would meet our own lock.
      const current = session;
      const target = current?.id === id ? current : openSession({ home: start.home, id, workdir: start.workdir });
      let next: PreparedAgent;
      try {
        next = await prepareSwitch(agentRequest(target.agent, { modelRef: target.model, sessionModel: target.model, sessionThinking: target.thinking }), signal);
      } catch (error) {
        if (target !== current) target.close();
        throw error;
      }
      const previous = prepared;
      prepared = next;
      session = adopt(target, next);
      previous.close();
      if (current && current !== target) current.closeDiscardingUnused();
    },
    // An agent without a model keeps the conversation's, and the level when that model offers it.
    async switchAgent(id, signal) {
      replace(await prepareSwitch(agentRequest(id, { sessionModel: prepared.model.ref, sessionThinking: prepared.thinking }), signal));
    },
    ...models,
    ...sessionTreeCommands({
      home: start.home,
      workdir: () => start.workdir,
      session: () => session,
      replaceSession(next) {
        session = adopt(next, prepared);
      },
    }),
    async compact(io) {
      if (!session) return false;
      return compactNow({ session, config: prepared.config, model: prepared.model, modelPort }, io);
    },
    listAgents: () => listAgents(start.home).agents.map((a) => ({ id: a.id, description: a.description, model: a.model })),
    tools: () => prepared.tools.specs().map((t) => ({ name: t.name, description: t.description })),
    hooks: () => [...prepared.hooks.names],
    attach(path) {
      const block = readFileAttachment(path, start.workdir);
      checkAttachmentsFit([...pending, block], prepared.model);
      pending.push(block);
      return attachmentRow(block);
    },
    pendingAttachments: () => pending.map(attachmentRow),
    dropAttachments: () => void (pending = []),
    history: () => (session ? historyOf(session) : []),
    notices() {
      return [...onceNotices.splice(0), ...prepared.notices];
    },
    close: () => {
      prepared.close();
      session?.closeDiscardingUnused();
    },
  };
}

/** Ties a session to the agent: records an agent or model switch (nothing when unchanged) and binds `ctx`. */
function adopt(session: SessionFile, prepared: PreparedAgent): SessionFile {
  recordSwitches(session, prepared);
  prepared.bind(session);
  return session;
}

/** Writes on the active branch the agent, model and thinking level `prepared` runs with, where the branch says otherwise. */
function recordSwitches(session: SessionFile, prepared: PreparedAgent): void {
  session.appendAgent(prepared.agent.id);
  session.appendModel(prepared.model.ref);
  recordThinking(session, prepared);
}
