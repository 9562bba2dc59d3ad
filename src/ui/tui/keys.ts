/**
 * The keys of the full-screen chat, as `/hotkeys` lists them and
 * docs/chat.md's key table shows them (a test keeps the two the same).
 */
import { twoColumns, type ChatStyle } from "../chat/index.ts";

export const TUI_KEYS: readonly (readonly [key: string, does: string])[] = [
  ["Enter", "sends the message; while the agent works, queues it for after the turn (shown above the editor)"],
  ["Ctrl-S", "while the agent works: steers the message into the running turn, before its next request"],
  ["Alt-Enter, Shift-Enter", "a new line (so does \\ then Enter)"],
  ["↑/↓", "move between lines; at the first or last line, through what you sent earlier"],
  ["@", "completes a path of the workspace (Tab or Enter takes it); on sending, the file is attached"],
  ["/", "at the start: completes the commands"],
  [
    "Esc",
    "while the agent works: takes the last queued message back into the editor; with none queued, interrupts as Ctrl-C does",
  ],
  [
    "Ctrl-C",
    "while the agent works: interrupts it, the answer so far kept (and queued messages back in the editor); a second cuts the afterRun hooks short, a third quits",
  ],
  ["Ctrl-C", "at the editor: clears it; twice at an empty editor quits"],
  ["Ctrl-D", "at an empty editor: quits"],
  ["Ctrl-O", "expands (or collapses) every tool call's arguments and output, and the thinking"],
  ["Ctrl-X then a/m/t", "the agent, model or thinking level picker"],
  ["Ctrl-P", "the command centre: new session, sessions, tree, agent, model, thinking, compact, copy, display options"],
  ["Ctrl-T", "the session tree: continue from an earlier message"],
  ["Ctrl-G", "edits the message in $VISUAL or $EDITOR"],
  ["Ctrl-Z", "suspends the chat; fg brings it back"],
  ["y, n, Esc", "at a question: yes, no, no (Ctrl-C: no, and interrupts the turn)"],
  [
    "editing keys",
    "Ctrl-A/E line start/end, Ctrl-U/K/W cut before/after/a word, Alt-←/→ by word, Ctrl-Y paste back, Ctrl-- undo",
  ],
];

/** The keys as two columns, for `/help` and `/hotkeys`. */
export function keysText(style: ChatStyle, width: number): string {
  return twoColumns(
    TUI_KEYS.map(([key, does]) => [key, does]),
    style,
    width,
  );
}
