/**
 * Word wrapping for text that arrives in pieces (a streamed answer, live
 * tool output): complete words are written at once, a word still arriving
 * waits until it ends, so a line never breaks inside a word unless the word
 * alone is wider than the line. Control characters in the text (escape
 * sequences included) are shown as `\x1b` and do nothing (terminal-text.ts):
 * the text is not Rienda's, and the screen owns its own styling.
 */
import { stripAnsi } from "consola/utils";
import { displayWidth } from "../../platform.ts";
import { isHiddenControl, terminalLine, visibleControl } from "../terminal-text.ts";

/** How a StreamWrapper lays out its text. */
export interface WrapOptions {
  /** Columns of the terminal, read at each write so a resize applies to the next line. */
  width: () => number;
  /** Written at the start of every line (may carry styling). */
  prefix?: string;
  /** Applied to every piece of text (not to the prefix). */
  paint?: (text: string) => string;
}

const TAB = 4;
/** Narrower than this, wrapping would only make things worse. */
const MIN_CONTENT = 10;

/** Wraps one stream of text. Not shared between blocks: each block gets its own. */
export class StreamWrapper {
  readonly #width: () => number;
  readonly #prefix: string;
  readonly #prefixWidth: number;
  readonly #paint: (text: string) => string;
  #column = 0;
  #lineStarted = false;
  #word = "";
  #wordWidth = 0;
  #spaces = 0;
  #afterCR = false;
  #out = "";

  constructor(options: WrapOptions) {
    this.#width = options.width;
    this.#prefix = options.prefix ?? "";
    this.#prefixWidth = displayWidth(stripAnsi(this.#prefix));
    this.#paint = options.paint ?? ((text) => text);
  }

  /** True when nothing has been written on the current line. */
  get atLineStart(): boolean {
    return !this.#lineStarted && this.#word === "";
  }

  /** Takes more text; returns what can be written now (every complete word). */
  push(text: string): string {
    for (const ch of text) {
      if (ch === "\n") {
        if (!this.#afterCR) this.#newlineFromText();
        this.#afterCR = false;
        continue;
      }
      this.#afterCR = ch === "\r";
      if (ch === "\r") this.#newlineFromText();
      else if (ch === " ") {
        this.#emitWord();
        this.#spaces++;
      } else if (ch === "\t") {
        this.#emitWord();
        const content = Math.max(0, this.#column - this.#prefixWidth) + this.#spaces;
        this.#spaces += TAB - (content % TAB);
      } else if (isHiddenControl(ch)) {
        // Shown as part of the word it interrupts, so `\x1b[2J` reads as written.
        const shown = visibleControl(ch);
        this.#word += shown;
        this.#wordWidth += shown.length;
      } else {
        this.#word += ch;
        this.#wordWidth += displayWidth(ch);
      }
    }
    return this.#take();
  }

  /** Writes the word still waiting (the text ended or another block starts). */
  flush(): string {
    this.#emitWord();
    return this.#take();
  }

  /** Flushes and ends the current line, if anything is on it. */
  end(): string {
    this.#emitWord();
    this.#spaces = 0;
    if (this.#lineStarted) this.#newline();
    return this.#take();
  }

  #take(): string {
    const out = this.#out;
    this.#out = "";
    return out;
  }

  #contentWidth(): number {
    return Math.max(this.#width(), this.#prefixWidth + MIN_CONTENT);
  }

  #startLine(): void {
    if (this.#lineStarted) return;
    this.#out += this.#prefix;
    this.#column = this.#prefixWidth;
    this.#lineStarted = true;
  }

  #newline(): void {
    this.#out += "\n";
    this.#column = 0;
    this.#lineStarted = false;
  }

  #newlineFromText(): void {
    this.#emitWord();
    this.#spaces = 0;
    if (!this.#lineStarted) this.#out += this.#prefix.trimEnd();
    this.#newline();
  }

  #emitWord(): void {
    if (this.#word === "") return;
    const width = this.#contentWidth();
    this.#startLine();
    const somethingOnLine = this.#column > this.#prefixWidth;
    if (somethingOnLine && this.#column + this.#spaces + this.#wordWidth > width) {
      this.#newline();
      this.#startLine();
    } else if (this.#spaces > 0) {
      this.#out += " ".repeat(this.#spaces);
      this.#column += this.#spaces;
    }
    this.#spaces = 0;
    if (this.#column + this.#wordWidth <= width) {
      this.#out += this.#paint(this.#word);
      this.#column += this.#wordWidth;
    } else {
      this.#hardBreak(this.#word, width);
    }
    this.#word = "";
    this.#wordWidth = 0;
  }

  /** A word wider than the line: cut it where the line ends. */
  #hardBreak(word: string, width: number): void {
    let piece = "";
    for (const ch of word) {
      const w = displayWidth(ch);
      if (this.#column + w > width && this.#column > this.#prefixWidth) {
        this.#out += this.#paint(piece);
        piece = "";
        this.#newline();
        this.#startLine();
      }
      piece += ch;
      this.#column += w;
    }
    this.#out += this.#paint(piece);
  }
}

/** Wraps whole text into lines of at most `width` columns, each starting with `prefix`; ends with a newline. */
export function wrapText(text: string, width: number, prefix = "", paint?: (text: string) => string): string {
  const wrapper = new StreamWrapper({ width: () => width, prefix, ...(paint ? { paint } : {}) });
  return wrapper.push(text) + wrapper.end();
}

/** Cuts text to one line of at most `width` columns, ending in "…" when cut; line breaks become spaces, control characters are shown (`\x1b`). */
export function truncateToWidth(text: string, width: number): string {
  const flat = terminalLine(text);
  if (displayWidth(flat) <= width) return flat;
  let out = "";
  let used = 0;
  for (const ch of flat) {
    const w = displayWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}
