/**
 * The keys that open a command from the editor (docs/chat.md "Keys"): the
 * Go program's Ctrl-X then a/m/t (agent, model, thinking pickers), Ctrl-P
 * the command centre, Ctrl-T the session tree. Ctrl-X waits for the next
 * key; any other than a, m or t ends the wait and does nothing.
 */
import { matchesKey } from "@mariozechner/pi-tui";
import type { PickerChoice } from "./picker-modal.ts";

/** What a key at the editor asks for: a command by name, the command centre, or nothing. */
export type Shortcut = { kind: "command"; name: string } | { kind: "palette" } | { kind: "prefix" } | undefined;

const AFTER_CTRL_X: Record<string, string> = { a: "agent", m: "model", t: "thinking" };

export class Shortcuts {
  #prefixed = false;

  /** The shortcut `data` makes (after Ctrl-X, the key that completes it). */
  read(data: string): Shortcut {
    if (this.#prefixed) {
      this.#prefixed = false;
      const name = AFTER_CTRL_X[data.toLowerCase()];
      return name ? { kind: "command", name } : { kind: "prefix" };
    }
    if (matchesKey(data, "ctrl+x")) {
      this.#prefixed = true;
      return { kind: "prefix" };
    }
    if (matchesKey(data, "ctrl+p")) return { kind: "palette" };
    if (matchesKey(data, "ctrl+t")) return { kind: "command", name: "tree" };
    return undefined;
  }
}

/** The command centre's entries: a command each (run as if typed without argument). */
export const PALETTE: readonly PickerChoice[] = [
  { value: "new", label: "new session" },
  { value: "resume", label: "sessions: resume one" },
  { value: "rename", label: "rename this session" },
  { value: "sessions", label: "sessions: list this workspace's" },
  { value: "tree", label: "tree: continue from an earlier message" },
  { value: "fork", label: "fork: continue in a new session" },
  { value: "agent", label: "agent: switch" },
  { value: "model", label: "model: switch" },
  { value: "thinking", label: "thinking level" },
  { value: "compact", label: "compact the conversation now" },
  { value: "copy", label: "copy the last answer or a code block" },
  { value: "show-thinking", label: "display: show or collapse thinking" },
  { value: "expand", label: "display: expand or collapse tool calls (Ctrl-O)" },
  { value: "tools", label: "tools and hooks of the agent" },
  { value: "hotkeys", label: "keys of this screen" },
];
