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
import { conversationStart } from "../shared/conversation-start.ts";
import { latestSessionId } from "../../compose/index.ts";
import { defineCommand } from "../shared/command.ts";
import { listAgents } from "../../agents/index.ts";
import { loadConfig } from "../../config/index.ts";
import { RiendaError, userMessage } from "../../errors.ts";
import {
  createChatScreen,
  createChatStyle,
  type ChatBackend,
  type ChatScreen,
  type ChatScreenOptions,
} from "../../ui/chat/index.ts";
import { VERSION } from "../../version.ts";
import { exitWhenFlushed } from "../shared/exit.ts";
import { INTERRUPTED_EXIT, interrupts } from "../shared/interrupts.ts";
import { untilInterrupted } from "../../abort-race.ts";
import { createConversation, pickStartModel, type ConversationStart } from "../../conversation/index.ts";
import type { CommandLine } from "../shared/strict-args.ts";
import { chatArgs } from "./chat-args.ts";
import { stderrForPeople } from "../shared/for-people.ts";

export default defineCommand({
  meta: { name: "rienda", description: "Chat with an agent in the terminal." },
  args: chatArgs,
  async run(line) {
    const watcher = interrupts();
    let backend: ChatBackend | undefined;
    let code: number;
    try {
      code = await chat(line, (created) => (backend = created));
    } catch (error) {
      if (watcher.interrupted) {
        // A signal before the conversation started (setup, the agent picker).
        code = watcher.cause === "SIGHUP" ? HANGUP_EXIT : watcher.exitCode;
      } else {
        // One line per problem, each prefixed, as every command prints them.
        stderrForPeople().write(
          `${userMessage(error)
            .split("\n")
            .map((line) => `rienda: ${line}`)
            .join("\n")}\n`,
        );
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
async function chat(line: CommandLine<typeof chatArgs>, started: (backend: ChatBackend) => void): Promise<number> {
  const parsed = line.values;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new RiendaError(
      "usage",
      "interactive chat needs a terminal; use rienda run -a AGENT -p PROMPT (see rienda run --help)",
    );
  }
  if (parsed.continue && parsed.session !== undefined) throw new RiendaError("usage", "use -c or -s ID, not both");
  const continuing = parsed.continue === true || parsed.session !== undefined;
  if ((parsed.fork || parsed.at !== undefined) && !continuing)
    throw new RiendaError("usage", `${parsed.fork ? "--fork" : "--at"} needs the session: -s ID or -c`);
  const start: ConversationStart = { ...conversationStart(parsed), rememberPicks: true };
  // A broken config fails before the user is asked anything.
  loadConfig({ ...(start.configPath ? { flag: start.configPath } : {}), env: start.env, home: start.home });
  if (parsed.session !== undefined) start.sessionId = parsed.session;
  else if (parsed.continue) start.sessionId = latestSessionId(start.home, start.workdir);

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
  const screen = plain
    ? createChatScreen(screenOptions)
    : (await import("../../ui/tui/index.ts")).createTuiScreen(screenOptions);
  screenRef = screen;
  const watcher = interrupts();
  if (!start.sessionId && !start.agentId) {
    const agentId = await untilInterrupted(pickAgent(start.home, screen), watcher.signal);
    if (agentId === undefined) return 0;
    start.agentId = agentId;
  }
  // An agent without a model, and nothing that decides one: the user picks (docs/chat.md).
  if (!start.sessionId && !(await untilInterrupted(pickStartModel(start, start.agentId!, screen), watcher.signal)))
    return 0;
  const backend = await untilInterrupted(createConversation(start, screen.dialogs), watcher.signal);
  started(backend);
  // As `rienda run --at/--fork` (docs/sessions.md): checked before anything is written.
  if (parsed.at !== undefined) await untilInterrupted(backend.continueAt(parsed.at, watcher.signal), watcher.signal);
  if (parsed.fork) await untilInterrupted(backend.fork(undefined, watcher.signal), watcher.signal);
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

async function pickAgent(home: string, screen: ChatScreen): Promise<string | undefined> {
  const { agents, problems } = listAgents(home);
  for (const problem of problems) stderrForPeople().write(`rienda: ${problem.message}\n`);
  if (agents.length === 0)
    throw new RiendaError("agent", "no agents in ~/.rienda/agents (rienda init writes a starter agent)");
  return screen.pickAgent(agents.map((a) => ({ id: a.id, description: a.description, model: a.model })));
}
