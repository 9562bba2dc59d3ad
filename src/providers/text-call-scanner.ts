/**
 * Holds back streamed text that may be a tool call written as text, so a
 * call recovered at the end of the answer (text-tool-calls.ts) is never
 * printed as if it were the answer. Text before a call marker streams as
 * usual; only a piece that could be the start of a marker waits for the
 * next delta, and from a marker on everything waits for the end.
 */

export class TextCallScanner {
  private pending = "";
  private held: string | undefined;
  private streamed = false;

  /**
   * `markers`: the texts that open a call. `bareJson`: an answer that
   * starts with `{` is held whole (a bare Llama 3 call).
   */
  constructor(
    private readonly markers: readonly string[],
    private readonly bareJson: boolean,
  ) {}

  /** Takes a delta; returns the text that can be shown now. */
  push(delta: string): string {
    if (this.held !== undefined) {
      this.held += delta;
      return "";
    }
    const text = this.pending + delta;
    this.pending = "";
    if (this.bareJson && !this.streamed) {
      const start = text.trimStart();
      if (start === "") {
        this.pending = text;
        return "";
      }
      if (start.startsWith("{")) {
        this.held = text;
        return "";
      }
    }
    let first = -1;
    for (const marker of this.markers) {
      const at = text.indexOf(marker);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    if (first >= 0) {
      this.held = text.slice(first);
      return this.shown(text.slice(0, first));
    }
    const keep = this.partialMarkerLength(text);
    this.pending = text.slice(text.length - keep);
    return this.shown(text.slice(0, text.length - keep));
  }

  /** The text held since a marker (or a leading `{`), if any. */
  heldText(): string | undefined {
    return this.held;
  }

  /** At the end of the answer: the text still waiting that was no marker after all. */
  flushPending(): string {
    const rest = this.pending;
    this.pending = "";
    return rest;
  }

  private shown(text: string): string {
    if (text !== "") this.streamed = true;
    return text;
  }

  /** How many characters at the end of `text` could begin a marker. */
  private partialMarkerLength(text: string): number {
    let longest = 0;
    for (const marker of this.markers) {
      for (let length = Math.min(marker.length - 1, text.length); length > longest; length--) {
        if (marker.startsWith(text.slice(text.length - length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
