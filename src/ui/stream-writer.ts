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

  /** `clean` is applied to everything before it is written or looked at (terminal-text.ts's terminalSafe). */
  constructor(
    private readonly sink: TextSink,
    private readonly clean: (text: string) => string = (text) => text,
  ) {}

  /** Writes raw text (live output). */
  raw(text: string): void {
    this.#emit(this.clean(text));
  }

  /** Writes raw text with `indent` at the start of each of its lines (a subagent's live output). */
  rawIndented(text: string, indent: string): void {
    if (indent === "") return this.raw(text);
    // Cleaned first: a carriage return that becomes a line break starts an indented line too.
    text = this.clean(text);
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
    const shown = this.clean(text);
    this.#emit(`${this.#atLineStart ? "" : "\n"}${shown}${shown.endsWith("\n") ? "" : "\n"}`);
  }

  /** Writes text already cleaned, remembering whether it ended a line. */
  #emit(shown: string): void {
    if (shown === "") return;
    this.sink.write(shown);
    this.#atLineStart = shown.endsWith("\n");
  }
}
