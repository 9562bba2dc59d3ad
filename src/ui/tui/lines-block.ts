/**
 * A block of already styled text in the transcript (your message, a
 * notice, a command's report, the end-of-turn line), wrapped again at
 * every width so a resize reflows it.
 */
import { wrapTextWithAnsi, type Component } from "@mariozechner/pi-tui";

/** Styled text, wrapped at render time; `prefix` starts the first line, `indent` the others. */
export class LinesBlock implements Component {
  #text: string;
  #cache?: { width: number; lines: string[] };

  constructor(
    text: string,
    readonly prefix = "",
    readonly indent = "",
  ) {
    this.#text = text;
  }

  setText(text: string): void {
    this.#text = text;
    this.#cache = undefined;
  }

  get text(): string {
    return this.#text;
  }

  invalidate(): void {
    this.#cache = undefined;
  }

  render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines;
    const room = Math.max(1, width - Math.max(visibleLength(this.prefix), visibleLength(this.indent)));
    const lines: string[] = [];
    for (const line of this.#text.replace(/\n$/, "").split("\n")) {
      for (const piece of wrapTextWithAnsi(line, room))
        lines.push(`${lines.length === 0 ? this.prefix : this.indent}${piece}`);
    }
    this.#cache = { width, lines };
    return lines;
  }
}

// Prefixes are short styled strings: their width is that of their visible characters.
function visibleLength(text: string): number {
  return [...text.replace(/\x1b\[[0-9;]*m/g, "")].length;
}
