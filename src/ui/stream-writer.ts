/**
 * A stream the run printers write to, remembering whether the last thing
 * written ended a line so that a whole-line message never lands in the middle
 * of live tool output.
 */

/** Where printers write: stdout or stderr, or a test buffer. */
export interface TextSink {
  write(text: string): unknown;
}

/** Wraps a sink and tracks line endings. */
export class LineTracker {
  #atLineStart = true;
  /**
   * A carriage return that ended the last piece of live output: held until
   * the next piece shows whether it began a CRLF (split across two reads)
   * or stood alone, so a CRLF never shows as two line breaks.
   */
  #heldCR = false;

  /**
   * `clean` is applied to everything before it is written or looked at
   * (terminal-text.ts's terminalSafe, which turns a lone carriage return
   * into a line break). Without one, the bytes pass as they come.
   */
  constructor(
    private readonly sink: TextSink,
    private readonly clean?: (text: string) => string,
  ) {}

  /** Writes raw text (live output). */
  raw(text: string): void {
    this.#emit(this.#cleaned(text));
  }

  /** Writes raw text with `indent` at the start of each of its lines (a subagent's live output). */
  rawIndented(text: string, indent: string): void {
    if (indent === "") return this.raw(text);
    // Cleaned first: a carriage return that becomes a line break starts an indented line too.
    text = this.#cleaned(text);
    let out = "";
    let atStart = this.#atLineStart;
    for (const piece of text.split(/(?<=\n)/)) {
      if (piece === "") continue;
      out += (atStart ? indent : "") + piece;
      atStart = piece.endsWith("\n");
    }
    this.#emit(out);
  }

  /** Writes one whole line, starting a new line first if needed. */
  line(text: string): void {
    // A held carriage return stood alone: it ends the line before.
    if (this.#heldCR) this.#emit(this.#cleaned(""));
    const shown = this.clean ? this.clean(text) : text;
    this.#emit(`${this.#atLineStart ? "" : "\n"}${shown}${shown.endsWith("\n") ? "" : "\n"}`);
  }

  /** Live output cleaned, a carriage return held from the last piece put back in front, its own last one held back in turn. */
  #cleaned(text: string): string {
    if (!this.clean) return text;
    const joined = this.#heldCR ? `\r${text}` : text;
    this.#heldCR = joined.endsWith("\r") && text !== "";
    return this.clean(this.#heldCR ? joined.slice(0, -1) : joined);
  }

  /** Writes text already cleaned, remembering whether it ended a line. */
  #emit(shown: string): void {
    if (shown === "") return;
    this.sink.write(shown);
    this.#atLineStart = shown.endsWith("\n");
  }
}
