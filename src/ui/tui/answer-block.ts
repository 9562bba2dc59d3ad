/**
 * The assistant's words, streamed in and drawn as markdown (headings,
 * lists, code blocks framed and coloured, tables, links). Control
 * characters of the model's text are shown, never sent to the terminal.
 */
import { Markdown, type Component } from "@mariozechner/pi-tui";
import { terminalSafe } from "../terminal-text.ts";
import type { TuiTheme } from "./theme.ts";

export class AnswerBlock implements Component {
  #text = "";
  readonly #markdown: Markdown;

  constructor(theme: TuiTheme) {
    this.#markdown = new Markdown("", 0, 0, theme.markdown);
  }

  get text(): string {
    return this.#text;
  }

  append(text: string): void {
    this.#text += text;
    this.#markdown.setText(terminalSafe(this.#text));
  }

  invalidate(): void {
    this.#markdown.invalidate();
  }

  render(width: number): string[] {
    return this.#text.trim() === "" ? [] : this.#markdown.render(width);
  }
}
