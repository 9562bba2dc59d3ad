/**
 * The keys of the full-screen chat while a turn runs (docs/chat.md "While
 * the agent works"): Enter queues what the editor holds as a follow-up,
 * Ctrl-S steers it into the running turn, Esc takes the last queued message
 * back into the editor (with none queued it interrupts, as Ctrl-C does).
 */
import { matchesKey, type Editor } from "@mariozechner/pi-tui";
import type { ChatBackend } from "../chat/index.ts";

/** The turn as the keys see it. */
export interface RunningTurn {
  press(): void;
  /** A model turn takes queued messages; a `!command` does not. */
  queues: boolean;
}

/** What the keys act on. */
export interface TurnKeyParts {
  editor: Editor;
  backend: ChatBackend | undefined;
  /** A message could not be queued (a file that does not fit the model): said under the transcript. */
  refused(message: string): void;
}

/** Handles one key of a running turn; whether it was used. */
export function turnKey(data: string, turn: RunningTurn, parts: TurnKeyParts): boolean {
  const { editor, backend } = parts;
  if (matchesKey(data, "escape") && turn.queues && backend && backend.queued().length > 0) {
    takeBack(editor, backend);
    return true;
  }
  if (matchesKey(data, "ctrl+c") || matchesKey(data, "escape")) {
    turn.press();
    return true;
  }
  const kind = matchesKey(data, "enter") ? "follow_up" : matchesKey(data, "ctrl+s") ? "steer" : undefined;
  if (kind === undefined) return false;
  const text = editor.getText();
  // Without a turn that takes messages, or words to send, what is typed waits in the editor.
  if (!turn.queues || !backend || text.trim() === "") return true;
  try {
    if (kind === "steer") backend.steer(text);
    else backend.followUp(text);
    editor.addToHistory(text);
    editor.setText("");
  } catch (error) {
    parts.refused(error instanceof Error ? error.message : String(error));
  }
  return true;
}

/** Esc: the newest message still waiting goes back into the editor (one already delivered stays delivered). */
function takeBack(editor: Editor, backend: ChatBackend): void {
  const last = backend.queued().at(-1);
  if (!last || !backend.withdraw(last.id)) return;
  editor.setText(editor.getText() === "" ? last.text : `${last.text}\n${editor.getText()}`);
}

/** After an interrupt: every message still waiting goes back into the editor, oldest first, nothing sent. */
export function giveBackQueued(editor: Editor, backend: ChatBackend): void {
  const waiting = backend.queued();
  backend.clearQueue();
  if (waiting.length === 0) return;
  editor.setText([...waiting.map((item) => item.text), editor.getText()].filter((text) => text !== "").join("\n"));
}
