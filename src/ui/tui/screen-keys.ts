/**
 * The keys the full-screen chat handles before the focused component
 * (docs/chat.md): Ctrl-O expands the blocks; during a turn, the turn's keys
 * (turn-keys.ts); during a switch, Ctrl-C gives up; at the editor, Ctrl-C
 * clears or quits, Ctrl-D quits, and the shortcuts, Ctrl-G, Ctrl-Z and
 * Ctrl-V. Anything else goes on to the editor.
 */
import { matchesKey, type Editor, type TUI } from "@mariozechner/pi-tui";
import { messageOf } from "../../errors.ts";
import type { ChatBackend, ChatStyle } from "../chat/index.ts";
import { terminalSafe } from "../terminal-text.ts";
import type { ActivityLine } from "./activity-line.ts";
import type { BottomPanel } from "./bottom-panel.ts";
import { attachClipboardImage } from "./image-input.ts";
import type { QueuedMessages } from "./queued-messages.ts";
import type { Activity } from "./screen-activity.ts";
import type { Shortcuts } from "./shortcuts.ts";
import { editExternally, suspendTui } from "./terminal-hand-off.ts";
import type { Transcript } from "./transcript.ts";
import { turnKey } from "./turn-keys.ts";

/** The parts of the screen the keys act on, and the state they read when a key comes. */
export interface ScreenKeyParts {
  tui: TUI;
  editor: Editor;
  bottom: BottomPanel;
  transcript: Transcript;
  queue: QueuedMessages;
  activityLine: ActivityLine;
  shortcuts: Shortcuts;
  style: ChatStyle;
  activity(): Activity;
  backend(): ChatBackend | undefined;
  render(): void;
}

type KeyResult = { consume: true } | undefined;

/** The keys of a model turn, as the activity line names them: with messages queued, Esc takes one back. */
export function turnHint(queue: QueuedMessages): string {
  return queue.count > 0
    ? "Esc takes the last queued back · Ctrl-C interrupts"
    : "Esc interrupts · Enter queues · Ctrl-S steers";
}

/** The listener for `tui.addInputListener`: consumes the keys the screen handles. */
export function screenKeys(parts: ScreenKeyParts): (data: string) => KeyResult {
  const { transcript, activityLine, style: s } = parts;
  return (data) => {
    // A question or picker in the editor's place has the keys to itself.
    if (parts.bottom.busy) return undefined;
    if (matchesKey(data, "ctrl+o")) {
      transcript.toggleExpanded();
      parts.render();
      return { consume: true };
    }
    const activity = parts.activity();
    if (activity.kind === "turn") {
      const refused = (message: string) => transcript.line(s.error(`error: ${terminalSafe(message)}`));
      if (!turnKey(data, activity, { editor: parts.editor, backend: parts.backend(), refused })) return undefined;
      if (activity.queues) activityLine.hint(turnHint(parts.queue));
      parts.render();
      return { consume: true };
    }
    if (activity.kind === "switch") {
      if (matchesKey(data, "ctrl+c")) activity.abort();
      return matchesKey(data, "enter") || matchesKey(data, "ctrl+c") ? { consume: true } : undefined;
    }
    if (activity.kind === "editor") return editorKey(data, activity, parts);
    return undefined;
  };
}

/** A key at the editor: Ctrl-C, Ctrl-D at an empty editor, a shortcut, or a hand-off to the outside. */
function editorKey(data: string, activity: Extract<Activity, { kind: "editor" }>, parts: ScreenKeyParts): KeyResult {
  const { tui, editor, transcript, style: s } = parts;
  const empty = editor.getText() === "";
  if (matchesKey(data, "ctrl+c")) {
    editor.setText("");
    activity.finish({ kind: "interrupt", hadInput: !empty });
    return { consume: true };
  }
  if (matchesKey(data, "ctrl+d") && empty) {
    activity.finish({ kind: "eof" });
    return { consume: true };
  }
  const shortcut = parts.shortcuts.read(data);
  const backend = parts.backend();
  if (shortcut?.kind === "command") activity.finish(shortcut);
  else if (shortcut?.kind === "palette") activity.finish({ kind: "command", name: "palette" });
  else if (matchesKey(data, "ctrl+g")) editExternally(tui, editor, (problem) => transcript.line(s.warn(problem)));
  else if (matchesKey(data, "ctrl+z")) suspendTui(tui);
  else if (matchesKey(data, "ctrl+v") && backend) clipboardImage(backend, parts);
  else if (shortcut === undefined) return undefined;
  return { consume: true };
}

/** Ctrl-V: an image on the clipboard is attached to the next message; the transcript says what happened. */
function clipboardImage(backend: ChatBackend, parts: ScreenKeyParts): void {
  const { transcript, style: s } = parts;
  try {
    const said = attachClipboardImage(backend);
    transcript.line(said.startsWith("attached") ? s.ok(said) : s.dim(said));
  } catch (error) {
    transcript.line(s.error(`error: ${terminalSafe(messageOf(error))}`));
  }
  parts.render();
}
