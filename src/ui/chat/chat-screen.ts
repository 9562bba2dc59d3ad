/**
 * The chat loop: read an input, then either run a command or run one turn
 * of the engine with it, until the user quits. Owns who reads the terminal
 * at each moment (the line editor, the turn's Ctrl-C watcher, or a
 * question) so that two readers never compete for a key.
 *
 * Ctrl-C during a turn aborts it (a second one also cuts its afterRun
 * hooks short, a third leaves at once); at the prompt it clears the line,
 * and twice in a row at an empty prompt quits, as does Ctrl-D.
 */
import type { RunOutcome } from "../../engine/index.ts";
import { messageOf, RiendaError } from "../../errors.ts";
import type { Prompt } from "../../tools/types.ts";
import { runChatCommand, showResumed, type CommandContext } from "./chat-commands.ts";
import { ChatRenderer } from "./chat-renderer.ts";
import type { ChatStyle } from "./chat-style.ts";
import { openLineEditor, type EditorResult, type OpenEditor } from "./line-editor.ts";
import { parseInput } from "./parse-input.ts";
import { modelText } from "./model-commands.ts";
import { askYesNo, pickOne, type QuestionIo } from "./prompts.ts";
import { watchTurnKeys, type TurnKeys } from "./turn-keys.ts";
import { TurnInterrupts } from "../../turn-interrupts.ts";
import type { AgentRow, ChatBackend } from "./types.ts";
import { truncateToWidth } from "./wrap-text.ts";

/** The terminal the chat runs in. */
export interface ChatTerminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

/** Settings of a chat screen. */
export interface ChatScreenOptions {
  terminal: ChatTerminal;
  style: ChatStyle;
  /** `-y`: every confirmation answers yes without asking. */
  autoApprove: boolean;
  /** Shown in the first line. */
  version: string;
  /** Ask the terminal to mark pastes, so pasted newlines do not send. */
  bracketedPaste: boolean;
  /** A third Ctrl-C during one turn: the caller leaves at once. */
  onHardExit(): void;
}

/** How the chat ended: the user quit, or a signal ended it. */
export type ChatEnd = "quit" | "signal";

/** The chat screen. */
export interface ChatScreen {
  /** `ctx.confirm` / `ctx.notify` of tools and hooks. */
  readonly dialogs: { confirm(prompt: Prompt, level?: number): Promise<boolean>; notify(prompt: Prompt): void };
  /** The start-up picker; undefined when the user cancels it. */
  pickAgent(agents: AgentRow[]): Promise<string | undefined>;
  /** The start-up model picker, for an agent (`agentId`) that names no model; undefined when the user cancels it. */
  pickModel(models: string[], agentId: string): Promise<string | undefined>;
  /** Runs the conversation until the user quits or `stop` is called. */
  run(backend: ChatBackend, options: { resumed: boolean }): Promise<ChatEnd>;
  /** A terminating signal: interrupts the turn or closes the prompt, then `run` returns "signal". */
  stop(): void;
  /** Gives the terminal back as it was (the full-screen chat's, when `run` was never reached). */
  close?(): void;
}

type Activity =
  | { kind: "idle" }
  | { kind: "editor"; editor: OpenEditor }
  | { kind: "turn"; press: () => void; keys: TurnKeys; signal: AbortSignal }
  | { kind: "switch"; abort: () => void };

/** The start-up model picker's question. */
export function modelQuestion(agentId: string): string {
  return `Which model? (agent ${agentId} names none; rienda remembers your pick)`;
}

/** Builds the screen on a terminal. */
export function createChatScreen(options: ChatScreenOptions): ChatScreen {
  const { terminal, style } = options;
  const width = () => terminal.output.columns || 80;
  const renderer = new ChatRenderer({ write: (text) => void terminal.output.write(text), style, width });
  const history: string[] = [];
  const io: QuestionIo = { input: terminal.input, output: terminal.output, style };
  let activity: Activity = { kind: "idle" };
  let stopped = false;
  let questions: Promise<unknown> = Promise.resolve();
  /** Typed while the last answer streamed; the next input starts with it. */
  let typeahead = "";

  /** Questions wait for each other: two prompts on one terminal would both read every key. */
  const serialize = <T>(ask: () => Promise<T>): Promise<T> => {
    const next = questions.then(ask, ask);
    questions = next.catch(() => undefined);
    return next;
  };

  const dialogs: ChatScreen["dialogs"] = {
    async confirm(prompt, level = 0) {
      // A subagent's question sits under its call, as its tool lines do.
      const indent = "  ".repeat(level);
      if (options.autoApprove) {
        renderer.line(
          style.dim(
            `${indent}✓ ${truncateToWidth(prompt.title || prompt.body, width() - 2 - indent.length)} (approved by -y)`,
          ),
        );
        return true;
      }
      return serialize(async () => {
        const turn = activity.kind === "turn" ? activity : undefined;
        renderer.closeBlock();
        turn?.keys.suspend();
        try {
          return await askYesNo(io, prompt.title, prompt.body, turn?.signal, indent);
        } finally {
          if (activity === turn) turn?.keys.reclaim();
        }
      });
    },
    notify(prompt) {
      const text = prompt.title && prompt.body ? `${prompt.title}: ${prompt.body}` : prompt.title || prompt.body;
      renderer.notice(text);
    },
  };

  async function runTurn(backend: ChatBackend, text: string): Promise<void> {
    let session: { id: string; created: boolean };
    try {
      session = backend.ensureSession();
    } catch (error) {
      renderer.paragraph(`error: ${messageOf(error)}`, (t) => style.error(t));
      return;
    }
    if (session.created) renderer.line(style.dim(`session ${session.id}`));
    const interrupts = new TurnInterrupts();
    const press = (): void => {
      if (interrupts.press() === "hard") options.onHardExit();
    };
    const keys = watchTurnKeys(terminal.input, press);
    activity = { kind: "turn", press, keys, signal: interrupts.signal };
    const started = Date.now();
    let outcome: RunOutcome;
    try {
      outcome = await backend.runTurn(text, {
        emit: (event) => renderer.event(event),
        signal: interrupts.signal,
        finalSignal: interrupts.finalSignal,
      });
    } catch (error) {
      outcome = {
        reason: interrupts.signal.aborted ? "interrupted" : "error",
        message: messageOf(error),
        usage: { inputTokens: 0, outputTokens: 0 },
      };
    } finally {
      typeahead = keys.dispose();
      activity = { kind: "idle" };
    }
    renderer.endTurn(outcome, Date.now() - started);
  }

  /**
   * A command's switch (an agent to prepare, MCP servers to start) can take
   * long or hang: Ctrl-C, or a terminating signal, gives up on it. Keys typed
   * meanwhile are kept for the next input, as during a turn.
   */
  async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    const keys = watchTurnKeys(terminal.input, abort);
    activity = { kind: "switch", abort };
    const gaveUp = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(new RiendaError("interrupted", "interrupted")), {
        once: true,
      });
    });
    try {
      if (stopped) controller.abort();
      return await Promise.race([work(controller.signal), gaveUp]);
    } finally {
      typeahead = keys.dispose();
      activity = { kind: "idle" };
    }
  }

  async function readInput(): Promise<EditorResult> {
    const editor = openLineEditor({
      input: terminal.input,
      output: terminal.output,
      prompt: style.accent("> "),
      continuationPrompt: style.dim("… "),
      history,
      bracketedPaste: options.bracketedPaste,
      initial: typeahead,
    });
    typeahead = "";
    activity = { kind: "editor", editor };
    try {
      return await editor.result;
    } finally {
      activity = { kind: "idle" };
    }
  }

  function banner(backend: ChatBackend, resumed: boolean): void {
    const status = backend.status();
    renderer.paragraph(`rienda ${options.version} · agent ${status.agent} · model ${modelText(status)}`, (t) =>
      style.bold(t),
    );
    renderer.paragraph("Enter sends · \\ or Alt-Enter for a new line · /help for commands · Ctrl-D quits", (t) =>
      style.dim(t),
    );
    const context: CommandContext = {
      backend,
      renderer,
      style,
      width,
      pick: (message, choices, initial) => pickOne(io, message, choices, initial),
      interruptible,
    };
    if (resumed) showResumed(context);
    else for (const notice of backend.notices()) renderer.notice(notice);
    renderer.line("");
  }

  return {
    dialogs,

    async pickAgent(agents) {
      const choices = agents.map((a) => ({
        value: a.id,
        label: truncateToWidth(`${a.id} — ${a.description}`, width() - 6),
      }));
      return pickOne(io, "Which agent?", choices);
    },

    async pickModel(models, agentId) {
      return pickOne(
        io,
        modelQuestion(agentId),
        models.map((m) => ({ value: m, label: m })),
      );
    },

    async run(backend, { resumed }) {
      // Raw for the whole chat: keys typed while no one reads wait unechoed.
      if (terminal.input.isTTY) terminal.input.setRawMode(true);
      try {
        return await converse(backend, resumed);
      } finally {
        if (terminal.input.isTTY) terminal.input.setRawMode(false);
        terminal.input.pause();
      }
    },

    stop() {
      stopped = true;
      if (activity.kind === "editor") activity.editor.cancel();
      else if (activity.kind === "turn") activity.press();
      else if (activity.kind === "switch") activity.abort();
    },
  };

  async function converse(backend: ChatBackend, resumed: boolean): Promise<ChatEnd> {
    banner(backend, resumed);
    const context: CommandContext = {
      backend,
      renderer,
      style,
      width,
      pick: (message, choices, initial) => pickOne(io, message, choices, initial),
      interruptible,
    };
    let armed = false;
    while (!stopped) {
      const input = await readInput();
      if (input.kind === "eof" || input.kind === "cancelled") break;
      if (input.kind === "interrupt") {
        if (input.hadInput) armed = false;
        else if (armed) break;
        else {
          armed = true;
          renderer.line(style.dim("(press Ctrl-C again to quit, or Ctrl-D)"));
        }
        continue;
      }
      armed = false;
      const parsed = parseInput(input.text);
      if (parsed.kind === "message") await runTurn(backend, parsed.text);
      else if (parsed.kind === "command") {
        if ((await runChatCommand(parsed.name, parsed.argument, context)) === "quit") break;
      } else if (parsed.kind === "misused") renderer.line(style.warn(`usage: ${parsed.usage}`));
      else if (parsed.kind === "unknown") {
        const hint = parsed.suggestion ? `did you mean /${parsed.suggestion}? ` : "";
        renderer.line(style.warn(`unknown command /${parsed.name}: ${hint}/help lists the commands`));
      }
      if (parsed.kind !== "message" && parsed.kind !== "empty") renderer.line("");
    }
    return stopped ? "signal" : "quit";
  }
}
