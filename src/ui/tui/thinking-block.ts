/**
 * The model's thinking: one dim line with its word count while collapsed,
 * the whole text, dimmed and marked, when expanded (Ctrl-O, or /thinking).
 */
import { wrapTextWithAnsi, type Component } from "@mariozechner/pi-tui";
import { wordCount } from "../chat/index.ts";
import { terminalSafe } from "../terminal-text.ts";
import type { TuiTheme } from "./theme.ts";

export class ThinkingBlock implements Component {
  #text = "";
  expanded: boolean;

  constructor(
    private readonly theme: TuiTheme,
    expanded: boolean,
  ) {
    this.expanded = expanded;
  }

  append(text: string): void {
    this.#text += text;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const words = wordCount(this.#text);
    if (!this.expanded) return [s.dim(`✻ thinking… ${words} words`)];
    const lines = [s.dim("✻ thinking")];
    for (const line of terminalSafe(this.#text).trim().split("\n")) {
      for (const piece of wrapTextWithAnsi(line, Math.max(1, width - 4))) lines.push(s.dim(`  ┊ ${piece}`));
    }
    return lines;
  }
}
