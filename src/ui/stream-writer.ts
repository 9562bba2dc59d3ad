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

  constructor(private readonly sink: TextSink) {}

  /** Writes raw text (live output). */
  raw(text: string): void {
    if (text === "") return;
    this.sink.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  /** Writes raw text with `indent` at the start of each of its lines (a subagent's live output). */
  rawIndented(text: string, indent: string): void {
    if (indent === "") return this.raw(text);
    let out = "";
    let atStart = this.#atLineStart;
    for (const piece of text.split(/(?<=\n)/)) {
      if (piece === "") continue;
      out += (atStart ? indent : "") + piece;
      atStart = piece.endsWith("\n");
    }
    this.raw(out);
  }

  /** Writes one whole line, starting a new line first if needed. */
  line(text: string): void {
    this.raw(`${this.#atLineStart ? "" : "\n"}${text}${text.endsWith("\n") ? "" : "\n"}`);
  }
}
