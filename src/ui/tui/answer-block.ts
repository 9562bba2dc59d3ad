/**
 * The assistant's words, streamed in and drawn as markdown (headings,
 * lists, tables, links) by pi-tui, except the fenced code blocks at the
 * start of a line, drawn by code-block.ts so that they copy clean.
 * Control characters of the model's text are shown, never sent to the
 * terminal.
 */
import { Markdown, type Component } from "@mariozechner/pi-tui";
import { terminalSafe } from "../terminal-text.ts";
import { codeBlockLines } from "./code-block.ts";
import type { TuiTheme } from "./theme.ts";

/** A piece of the answer: markdown, or a code block (its fence's language, its lines; still open while streaming). */
type Piece = { kind: "markdown"; text: string } | { kind: "code"; lang?: string; code: string };

export class AnswerBlock implements Component {
  #text = "";
  #pieces: Piece[] = [];
  /** One Markdown per markdown piece, kept across appends (each caches its lines). */
  readonly #markdown: Markdown[] = [];
  #drawn?: { width: number; length: number; lines: string[] };

  constructor(private readonly theme: TuiTheme) {}

  get text(): string {
    return this.#text;
  }

  append(text: string): void {
    this.#text += text;
    this.#pieces = piecesOf(terminalSafe(this.#text));
    let m = 0;
    for (const piece of this.#pieces) {
      if (piece.kind !== "markdown") continue;
      const existing = this.#markdown[m];
      if (existing) existing.setText(piece.text);
      else this.#markdown.push(new Markdown(piece.text, 0, 0, this.theme.markdown));
      m++;
    }
    this.#markdown.length = m;
  }

  invalidate(): void {
    this.#drawn = undefined;
    for (const markdown of this.#markdown) markdown.invalidate();
  }

  render(width: number): string[] {
    // The activity line redraws the screen often: an answer already drawn at this width is not drawn again.
    if (this.#drawn?.width === width && this.#drawn.length === this.#text.length) return this.#drawn.lines;
    const lines = this.#draw(width);
    this.#drawn = { width, length: this.#text.length, lines };
    return lines;
  }

  #draw(width: number): string[] {
    if (this.#text.trim() === "") return [];
    const lines: string[] = [];
    let m = 0;
    for (const piece of this.#pieces) {
      const drawn =
        piece.kind === "code"
          ? codeBlockLines(piece.code, piece.lang, width, this.theme)
          : this.#markdown[m++]!.render(width);
      // pi-tui pads its lines to the width: trailing blanks would be copied with the text.
      const trimmed = drawn.map((line) => line.replace(/ +((?:\x1b\[[0-9;]*m)*)$/, "$1"));
      while (trimmed.length > 0 && trimmed.at(-1) === "") trimmed.pop();
      while (trimmed.length > 0 && trimmed[0] === "") trimmed.shift();
      if (trimmed.length === 0) continue;
      if (lines.length > 0) lines.push("");
      lines.push(...trimmed);
    }
    return lines;
  }
}

/** Splits markdown at its top-level fences (``` or ~~~ at the start of a line); a fence not closed yet runs to the end. */
export function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  let markdown: string[] = [];
  let code: { fence: string; lang?: string; lines: string[] } | undefined;
  for (const line of text.split("\n")) {
    if (code) {
      const close = /^(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close !== undefined && close[0] === code.fence[0] && close.length >= code.fence.length) {
        pieces.push({ kind: "code", ...(code.lang ? { lang: code.lang } : {}), code: code.lines.join("\n") });
        code = undefined;
      } else code.lines.push(line);
      continue;
    }
    const open = /^(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (open) {
      if (markdown.length > 0) pieces.push({ kind: "markdown", text: markdown.join("\n") });
      markdown = [];
      code = { fence: open[1]!, ...(open[2] ? { lang: open[2] } : {}), lines: [] };
    } else markdown.push(line);
  }
  if (code) pieces.push({ kind: "code", ...(code.lang ? { lang: code.lang } : {}), code: code.lines.join("\n") });
  else if (markdown.length > 0) pieces.push({ kind: "markdown", text: markdown.join("\n") });
  return pieces;
}
