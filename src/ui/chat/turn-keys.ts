/**
 * The keyboard while a turn runs: the terminal stays in raw mode (nothing
 * typed is echoed into the answer) and Ctrl-C is read as a key, not a
 * signal, so it interrupts the turn instead of the program. Printable keys
 * typed meanwhile are kept (Backspace takes one back) and become the start
 * of the next input; Enter and other keys are ignored, so nothing typed
 * during an answer is ever sent without a look. A question (a confirm
 * prompt) may take the terminal meanwhile: `suspend` before it, `reclaim`
 * after, which also puts raw mode and reading back.
 */
import { emitKeypressEvents } from "node:readline";

/** The watcher of one turn. */
export interface TurnKeys {
  /** Stops keeping typed keys (a question reads them). Ctrl-C still interrupts. */
  suspend(): void;
  /** Raw mode and reading again, after a prompt library turned them off; keeps typed keys again. */
  reclaim(): void;
  /** Stops watching and reading the terminal; returns what was typed. */
  dispose(): string;
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/** Starts watching `input` for Ctrl-C and typed text. */
export function watchTurnKeys(input: NodeJS.ReadStream, onCtrlC: () => void): TurnKeys {
  emitKeypressEvents(input);
  let typed = "";
  let suspended = false;
  const onKeypress = (text: string | undefined, key: Key | undefined): void => {
    if (key?.ctrl && key.name === "c") return onCtrlC();
    if (suspended || key?.ctrl || key?.meta) return;
    if (key?.name === "backspace") typed = [...typed].slice(0, -1).join("");
    else if (text !== undefined && [...text].length === 1 && text >= " " && text !== "\u007f") typed += text;
  };
  const reclaim = (): void => {
    suspended = false;
    if (input.isTTY) input.setRawMode(true);
    input.resume();
  };
  input.on("keypress", onKeypress);
  reclaim();
  return {
    suspend: () => void (suspended = true),
    reclaim,
    dispose() {
      input.off("keypress", onKeypress);
      input.pause();
      return typed;
    },
  };
}
