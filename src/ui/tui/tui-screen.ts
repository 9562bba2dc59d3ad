/**
 * The full-screen chat (`rienda` in a terminal that can take it): the
 * transcript, the editor (or a question in its place) and the status
 * line, drawn by pi-tui, which redraws only the lines that changed. The
 * same ChatScreen as the line chat (ui/chat), over the same backend and
 * the same engine events, and the same slash commands (ui/chat's
 * runChatCommand, its reports drawn into the transcript).
 *
 * Keys: Enter sends; Alt-Enter, Shift-Enter or `\` then Enter go to a new
 * line. During a turn Esc or Ctrl-C interrupts it (a second also cuts its
 * afterRun hooks short, a third leaves at once), and what you type waits
 * in the editor. At the editor Ctrl-C clears the text, twice at an empty
 * editor quits, as does Ctrl-D.
 */
import { Editor, TUI } from "@mariozechner/pi-tui";
import type { RunOutcome } from "../../engine/index.ts";
import { messageOf } from "../../errors.ts";
import {
  modelQuestion,
  modelText,
  parseInput,
  runChatCommand,
  showResumed,
  type ChatBackend,
  type ChatEnd,
  type ChatScreen,
  type ChatScreenOptions,
  type CommandContext,
} from "../chat/index.ts";
import { terminalLine, terminalSafe } from "../terminal-text.ts";
import { BottomPanel } from "./bottom-panel.ts";
import { createCommandOutput } from "./command-output.ts";
import { createTuiDialogs } from "./tui-dialogs.ts";
import { EventFeed } from "./event-feed.ts";
import { PickerModal, type PickerChoice } from "./picker-modal.ts";
import { StatusLine } from "./status-line.ts";
import { ActivityLine } from "./activity-line.ts";
import { createTuiTheme } from "./theme.ts";
import { Transcript } from "./transcript.ts";
import { attachMentions, WorkspaceFiles } from "./file-mentions.ts";
import { argumentValues } from "./argument-values.ts";
import { bangCommand, runBang } from "./bang-command.ts";
import { attachDroppedImages } from "./image-input.ts";
import { ScrollbackKeepingTerminal } from "./keep-scrollback.ts";
import { PALETTE, Shortcuts } from "./shortcuts.ts";
import { keysText } from "./keys.ts";
import { osc52, osc52Refusal } from "./terminal-hand-off.ts";
import { QueuedMessages } from "./queued-messages.ts";
import { TurnInterrupts } from "../../turn-interrupts.ts";
import { giveBackQueued } from "./turn-keys.ts";
import { interruptedOnAbort, type Activity, type Input } from "./screen-activity.ts";
import { screenKeys, turnHint } from "./screen-keys.ts";

/** Builds the full-screen chat; the terminal is taken at the first thing it shows. */
export function createTuiScreen(options: ChatScreenOptions): ChatScreen {
  const theme = createTuiTheme(true);
  const s = theme.style;
  const tui = new TUI(new ScrollbackKeepingTerminal());
  const shortcuts = new Shortcuts();
  const transcript = new Transcript(theme);
  const editor = new Editor(tui, theme.editor, { paddingX: 1 });
  const bottom = new BottomPanel(tui, editor, () => transcript.lineCount);
  let backendRef: ChatBackend | undefined;
  const status = new StatusLine(
    theme,
    () => backendRef?.status() ?? { agent: "-", model: "-", sessionId: null, workdir: "" },
    () => backendRef?.gitBranch(),
  );
  const render = (): void => tui.requestRender();
  const activityLine = new ActivityLine(theme, render);
  const commandOutput = createCommandOutput(
    transcript,
    s,
    () => tui.terminal.columns,
    () => tui.requestRender(),
  );
  const feed = new EventFeed(transcript, theme, () => commandOutput.renderer.expandThinking);
  const queue = new QueuedMessages(theme);
  tui.addChild(transcript);
  tui.addChild(queue);
  tui.addChild(bottom);
  tui.addChild(activityLine);
  tui.addChild(status);
  tui.setFocus(editor);

  let activity: Activity = { kind: "idle" };
  /** What `!command`s printed, sent with the next message before its words. */
  let carried: string[] = [];
  /** What you sent, as the transcript shows it. */
  const echo = (text: string): void => {
    transcript.line("");
    transcript.line(s.bold(terminalSafe(text)), s.accent("> "), s.dim("… "));
  };
  let stopped = false;
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    tui.start();
  };

  editor.onSubmit = (text) => {
    if (activity.kind !== "editor") return;
    if (text.trim() !== "") editor.addToHistory(text);
    activity.finish({ kind: "text", text });
  };

  // Keys the screen handles before the focused component: interrupts, quitting, expanding blocks.
  tui.addInputListener(
    screenKeys({
      tui,
      editor,
      bottom,
      transcript,
      queue,
      activityLine,
      shortcuts,
      style: s,
      activity: () => activity,
      backend: () => backendRef,
      render,
    }),
  );

  function readInput(): Promise<Input> {
    return new Promise((resolve) => {
      activity = {
        kind: "editor",
        finish: (input) => {
          activity = { kind: "idle" };
          if (input.kind === "text") editor.setText("");
          resolve(input);
        },
      };
      render();
    });
  }

  function pick(
    message: string,
    choices: PickerChoice[],
    initial?: string,
    listKeys = false,
  ): Promise<string | undefined> {
    start();
    if (choices.length === 0) return Promise.resolve(undefined);
    return bottom
      .ask<string | undefined>(
        (close) => new PickerModal(theme, message, choices, initial, () => tui.terminal.rows, close, listKeys),
        undefined,
      )
      .then((value) => {
        transcript.line(value === undefined ? s.warn(`✗ ${message} (cancelled)`) : `${s.ok("✔")} ${message} ${value}`);
        return value;
      });
  }

  const dialogs = createTuiDialogs({
    theme,
    transcript,
    bottom,
    activityLine,
    autoApprove: options.autoApprove,
    render,
    start,
    turn: () => (activity.kind === "turn" ? activity : undefined),
  });

  async function runTurn(backend: ChatBackend, text: string): Promise<void> {
    let session: { id: string; created: boolean };
    try {
      session = backend.ensureSession();
      attachMentions(text, backend, transcript, s);
      attachDroppedImages(text, backend, transcript, s);
    } catch (error) {
      transcript.line(s.error(`error: ${terminalSafe(messageOf(error))}`));
      return;
    }
    echo(text);
    if (session.created) transcript.line(s.dim(`session ${session.id}`));
    const interrupts = new TurnInterrupts();
    const press = (): void => {
      if (interrupts.press() === "hard") {
        tui.stop();
        options.onHardExit();
      }
      const first = interrupts.presses === 1;
      activityLine.set(
        first ? "interrupting" : "ending the afterRun hooks",
        first ? "Esc again cuts the afterRun hooks short" : "Esc again quits at once",
      );
      render();
    };
    activity = { kind: "turn", press, signal: interrupts.signal, queues: true };
    activityLine.set("waiting for the model", turnHint(queue));
    render();
    const startedAt = Date.now();
    let outcome: RunOutcome;
    try {
      const prompt = [...carried, text].join("\n\n");
      carried = [];
      outcome = await backend.runTurn(prompt, {
        emit: (event) => {
          if (event.type === "steer" && event.parent === undefined) {
            queue.delivered("steer", event.text);
            activityLine.hint(turnHint(queue));
            transcript.line(s.bold(terminalSafe(event.text)), s.accent("> "), s.dim("… "));
          }
          feed.event(event);
          status.event(event);
          activityLine.event(event);
          render();
        },
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
      activity = { kind: "idle" };
      activityLine.clear();
      status.refresh();
    }
    feed.endTurn(outcome, Date.now() - startedAt);
    // Nothing queued is sent after an interrupt: it goes back into the editor.
    if (outcome.reason === "interrupted") giveBackQueued({ editor, queue, backend });
    render();
  }

  /** The follow-ups queued during a turn, each a turn of its own, in order. */
  async function runFollowUps(backend: ChatBackend): Promise<void> {
    for (let next = backend.nextFollowUp(); next && !stopped; next = backend.nextFollowUp()) {
      queue.delivered("follow_up", next.text);
      await runTurn(backend, next.text);
    }
  }

  /** `!command`: run with the keys of a turn (Esc or Ctrl-C ends it); what it printed goes with the next message. */
  async function runBangCommand(command: string, cwd: string): Promise<void> {
    echo(`!${command}`);
    const controller = new AbortController();
    activity = { kind: "turn", press: () => controller.abort(), signal: controller.signal, queues: false };
    activityLine.set("shell", "Esc or Ctrl-C interrupts");
    try {
      carried.push(await runBang(command, cwd, transcript, theme, render, controller.signal));
    } finally {
      activity = { kind: "idle" };
      activityLine.clear();
      status.refresh();
    }
  }

  /** A command's switch (an agent to prepare, MCP servers to start): Ctrl-C, or a signal, gives up on it. */
  async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    activity = { kind: "switch", abort };
    activityLine.set("switching", "Ctrl-C gives up");
    render();
    const gaveUp = interruptedOnAbort(controller.signal);
    try {
      if (stopped) controller.abort();
      return await Promise.race([work(controller.signal), gaveUp]);
    } finally {
      activity = { kind: "idle" };
      activityLine.clear();
    }
  }

  async function converse(backend: ChatBackend, resumed: boolean): Promise<ChatEnd> {
    backendRef = backend;
    status.refresh();
    const files = new WorkspaceFiles(
      () => backend.status().workdir,
      (command) => argumentValues(backend, command),
    );
    editor.setAutocompleteProvider(files.provider());
    const context: CommandContext = {
      backend,
      renderer: commandOutput.renderer,
      style: s,
      width: () => tui.terminal.columns,
      pick,
      interruptible,
      keys: keysText,
      copy: (text) => {
        const refused = osc52Refusal(process.env);
        if (refused === undefined) tui.terminal.write(osc52(text));
        return refused;
      },
    };
    /** Runs a command as typed (`shown`), its report under it. */
    const command = async (name: string, argument: string, shown: string): Promise<boolean> => {
      echo(shown);
      const effect = await runChatCommand(name, argument, context);
      commandOutput.end();
      status.refresh();
      return effect === "quit";
    };
    const st = backend.status();
    transcript.line(s.bold(`rienda ${options.version} · agent ${st.agent} · model ${modelText(st)}`));
    transcript.line(s.dim("Enter sends · Alt-Enter new line · @ file · Ctrl-P commands · /hotkeys"));
    if (resumed) showResumed(context);
    else for (const notice of backend.notices()) transcript.notice(terminalLine(notice));
    commandOutput.end();
    let armed = false;
    while (!stopped) {
      const input = await readInput();
      if (input.kind === "eof" || input.kind === "cancelled") break;
      if (input.kind === "interrupt") {
        if (input.hadInput) armed = false;
        else if (armed) break;
        else {
          armed = true;
          transcript.line(s.dim("(press Ctrl-C again to quit, or Ctrl-D)"));
        }
        continue;
      }
      armed = false;
      if (input.kind === "command") {
        const name = input.name === "palette" ? await pick("Which command?", [...PALETTE]) : input.name;
        if (name === "expand") transcript.toggleExpanded();
        else if (name === "rename") editor.setText("/rename ");
        else if (name !== undefined && (await command(name, "", `/${name}`))) break;
        render();
        continue;
      }
      const bang = bangCommand(input.text);
      if (bang !== undefined) {
        await runBangCommand(bang, backend.status().workdir);
        render();
        continue;
      }
      const parsed = parseInput(input.text);
      if (parsed.kind === "message") {
        await runTurn(backend, parsed.text);
        await runFollowUps(backend);
      } else if (parsed.kind === "command") {
        if (await command(parsed.name, parsed.argument, input.text)) break;
      } else if (parsed.kind === "misused") transcript.line(s.warn(`usage: ${parsed.usage}`));
      else if (parsed.kind === "unknown") {
        const hint = parsed.suggestion ? `did you mean /${parsed.suggestion}? ` : "";
        transcript.line(s.warn(`unknown command /${parsed.name}: ${hint}/help lists the commands`));
      }
      render();
    }
    // The last frame stays on the terminal: it says how to come back.
    const id = backend.status().sessionId;
    if (id) transcript.line(s.dim(`to continue this conversation: rienda -s ${id}`));
    return stopped ? "signal" : "quit";
  }

  return {
    dialogs,
    pickAgent(agents) {
      return pick(
        "Which agent?",
        agents.map((a) => ({ value: a.id, label: `${a.id} — ${terminalLine(a.description)}` })),
        undefined,
        true,
      );
    },
    pickModel(models, agentId) {
      return pick(
        modelQuestion(agentId),
        models.map((m) => ({ value: m, label: terminalLine(m) })),
        undefined,
        true,
      );
    },
    async run(backend, { resumed }) {
      start();
      try {
        return await converse(backend, resumed);
      } finally {
        // The last frame stays on the terminal; the cursor goes below it.
        tui.requestRender(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        tui.stop();
        started = false;
      }
    },
    close() {
      if (started) tui.stop();
      started = false;
    },
    stop() {
      stopped = true;
      bottom.cancel();
      if (activity.kind === "editor") activity.finish({ kind: "cancelled" });
      else if (activity.kind === "turn") activity.press();
      else if (activity.kind === "switch") activity.abort();
    },
  };
}
