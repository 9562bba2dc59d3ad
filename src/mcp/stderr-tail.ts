/** The last lines a server wrote to stderr, quoted when it fails (never printed otherwise). */
export class StderrTail {
  private text = "";
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxChars = 2000) {}

  push(chunk: Uint8Array): void {
    this.text += this.decoder.decode(chunk, { stream: true });
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }

  /** Up to `lines` last non-empty lines, trimmed to the size limit; "" when nothing was written. */
  lines(lines = 10): string {
    const all = this.text.split(/\r?\n/).filter((l) => l.trim() !== "");
    const tail = all.slice(-lines).join("\n");
    return tail.length > this.maxChars ? `…${tail.slice(-this.maxChars)}` : tail;
  }
}
