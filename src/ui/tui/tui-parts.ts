/**
 * The parts of the full-screen chat and what it is doing, shared by the
 * modules that drive it (tui-turns.ts, tui-converse.ts, tui-screen.ts):
 * the terminal, the transcript, the queued messages, the editor (or a
 * question in its place), the activity and status lines, stacked in that
 * order, and the state that changes as the chat goes on.
 */
import { Editor, TUI } from "@mariozechner/pi-tui";
import type { ChatBackend, ChatScreenOptions } from "../chat/index.ts";
import { terminalSafe } from "../terminal-text.ts";
import { ActivityLine } from "./activity-line.ts";
import { BottomPanel } from "./bottom-panel.ts";
import { createCommandOutput, type CommandOutput } from "./command-output.ts";
import { EventFeed } from "./event-feed.ts";
import { ScrollbackKeepingTerminal } from "./keep-scrollback.ts";
import { QueuedMessages } from "./queued-messages.ts";
import type { Activity } from "./screen-activity.ts";
import { screenKeys } from "./screen-keys.ts";
import { Shortcuts } from "./shortcuts.ts";
import { StatusLine } from "./status-line.ts";
import { createTuiTheme, type TuiTheme } from "./theme.ts";
import { Transcript } from "./transcript.ts";

/** What changes while the chat runs. */
export interface TuiState {
  activity: Activity;
  /** What `!command`s printed, sent with the next message before its words. */
  carried: string[];
  /** A signal (or the terminal going away) asked the chat to end. */
  stopped: boolean;
  /** The terminal is taken (tui.start ran). */
  started: boolean;
  /** The conversation, once `run` has it. */
  backend?: ChatBackend;
}

/** The chat's parts, built once. */
export interface TuiParts {
  options: ChatScreenOptions;
  theme: TuiTheme;
  s: TuiTheme["style"];
  tui: TUI;
  transcript: Transcript;
  queue: QueuedMessages;
  editor: Editor;
  bottom: BottomPanel;
  activityLine: ActivityLine;
  status: StatusLine;
  commandOutput: CommandOutput;
  feed: EventFeed;
  state: TuiState;
  render(): void;
  /** Takes the terminal, once. */
  start(): void;
  /** What you sent, as the transcript shows it. */
  echo(text: string): void;
}

/** Builds the parts, stacks them and routes the keys; nothing is drawn until `start`. */
export function createTuiParts(options: ChatScreenOptions): TuiParts {
  const theme = createTuiTheme(true);
  const s = theme.style;
  const tui = new TUI(new ScrollbackKeepingTerminal());
  const transcript = new Transcript(theme);
  const editor = new Editor(tui, theme.editor, { paddingX: 1 });
  const state: TuiState = { activity: { kind: "idle" }, carried: [], stopped: false, started: false };
  const render = (): void => tui.requestRender();
  const commandOutput = createCommandOutput(transcript, s, () => tui.terminal.columns, render);
  const parts: TuiParts = {
    options,
    theme,
    s,
    tui,
    transcript,
    queue: new QueuedMessages(theme, () => state.backend?.queued() ?? []),
    editor,
    bottom: new BottomPanel(tui, editor, () => transcript.lineCount),
    activityLine: new ActivityLine(theme, render),
    status: new StatusLine(
      theme,
      () => state.backend?.status() ?? { agent: "-", model: "-", sessionId: null, workdir: "" },
      () => state.backend?.gitBranch(),
    ),
    commandOutput,
    feed: new EventFeed(transcript, theme, () => commandOutput.renderer.expandThinking),
    state,
    render,
    start: () => {
      if (state.started) return;
      state.started = true;
      tui.start();
    },
    echo: (text) => {
      transcript.line("");
      transcript.line(s.bold(terminalSafe(text)), s.accent("> "), s.dim("… "));
    },
  };
  stack(parts);
  return parts;
}

/** The components in their order, the editor focused, Enter and the screen's own keys wired. */
function stack(parts: TuiParts): void {
  const { tui, editor, state } = parts;
  for (const child of [parts.transcript, parts.queue, parts.bottom, parts.activityLine, parts.status])
    tui.addChild(child);
  tui.setFocus(editor);
  editor.onSubmit = (text) => {
    if (state.activity.kind !== "editor") return;
    if (text.trim() !== "") editor.addToHistory(text);
    state.activity.finish({ kind: "text", text });
  };
  // Keys the screen handles before the focused component: interrupts, quitting, expanding blocks.
  tui.addInputListener(
    screenKeys({
      tui,
      editor,
      bottom: parts.bottom,
      transcript: parts.transcript,
      queue: parts.queue,
      activityLine: parts.activityLine,
      shortcuts: new Shortcuts(),
      style: parts.s,
      activity: () => state.activity,
      backend: () => state.backend,
      render: parts.render,
    }),
  );
}
