/**
 * The key field of `rienda auth`'s screen: what is typed or pasted is kept
 * and drawn as one `•` per character, never as itself. A paste keeps its
 * line breaks inside (the key checks then refuse two keys pasted together)
 * and loses those at its end (copying a line takes its newline too).
 * Backspace removes the last character, Ctrl-U everything; Enter submits,
 * Esc (or Ctrl-C) leaves the field.
 */
import { decodeKittyPrintable, matchesKey, type Component } from "@mariozechner/pi-tui";

const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

export class MaskedField implements Component {
  #chars: string[] = [];
  /** A bracketed paste still arriving. */
  #paste: string | undefined;

  constructor(
    private readonly label: string,
    private readonly submit: (value: string) => void,
    private readonly leave: () => void,
  ) {}

  /** How many characters are in the field (what the screen may show of it). */
  get length(): number {
    return this.#chars.length;
  }

  handleInput(data: string): void {
    if (this.#paste !== undefined || data.includes(PASTE_START)) {
      this.#takePaste(data);
      return;
    }
    if (matchesKey(data, "enter")) this.submit(this.#chars.join(""));
    else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) this.leave();
    else if (matchesKey(data, "backspace")) this.#chars.pop();
    else if (matchesKey(data, "ctrl+u")) this.#chars = [];
    else {
      const printable = decodeKittyPrintable(data) ?? data;
      if ([...printable].every((char) => char >= " " && char !== "\u007f")) this.#chars.push(...printable);
    }
  }

  #takePaste(data: string): void {
    const text =
      (this.#paste ?? "") +
      (this.#paste === undefined ? data.slice(data.indexOf(PASTE_START) + PASTE_START.length) : data);
    const end = text.indexOf(PASTE_END);
    if (end === -1) {
      this.#paste = text;
      return;
    }
    this.#paste = undefined;
    this.#chars.push(...text.slice(0, end).replace(/[\r\n]+$/, ""));
    const rest = text.slice(end + PASTE_END.length);
    if (rest !== "") this.handleInput(rest);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const room = Math.max(1, width - this.label.length - 2);
    const dots =
      this.#chars.length <= room
        ? "•".repeat(this.#chars.length)
        : `${"•".repeat(Math.max(0, room - 12))} (${this.#chars.length} chars)`;
    return [`${this.label}${dots}▏`];
  }
}
