/**
 * A line typed at a terminal in raw mode, where nothing is echoed: what
 * `rienda auth set NAME` reads on a terminal. Keeps the characters typed
 * or pasted, Backspace removes the last, Ctrl-U all of them; Enter (or
 * Ctrl-D) ends the line, Ctrl-C interrupts. Escape sequences (arrows, a
 * bracketed paste's markers) are dropped, never taken for the key.
 */

export type HiddenLineState = "reading" | "done" | "interrupted";

export class HiddenLine {
  #chars: string[] = [];
  #state: HiddenLineState = "reading";
  /** Inside an escape sequence: what has been seen of it. */
  #escape: string | undefined;

  get state(): HiddenLineState {
    return this.#state;
  }

  /** The line typed so far. */
  get value(): string {
    return this.#chars.join("");
  }

  /** Takes what the terminal sent; returns the state after it. Anything after the end of the line is ignored. */
  feed(data: string): HiddenLineState {
    for (const char of data) {
      if (this.#state !== "reading") break;
      this.#take(char);
    }
    return this.#state;
  }

  #take(char: string): void {
    if (this.#escape !== undefined) {
      this.#escape += char;
      // ESC [ ... final byte, ESC O x, or ESC x: the sequence ends there.
      const introducer = this.#escape[0];
      const ended =
        introducer === "["
          ? this.#escape.length > 1 && /[@-~]/.test(char)
          : introducer === "O"
            ? this.#escape.length === 2
            : true;
      if (ended) this.#escape = undefined;
      return;
    }
    switch (char) {
      case "\u001b":
        this.#escape = "";
        return;
      case "\r":
      case "\n":
      case "\u0004":
        this.#state = "done";
        return;
      case "\u0003":
        this.#state = "interrupted";
        return;
      case "\u007f":
      case "\b":
        this.#chars.pop();
        return;
      case "\u0015":
        this.#chars = [];
        return;
      default:
        // Other control characters (Tab, Ctrl-letters) are keys, not part of a key.
        if (char >= " ") this.#chars.push(char);
    }
  }
}
