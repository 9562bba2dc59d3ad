/**
 * A fenced code block of an answer, drawn so that what is selected on the
 * screen and copied is the code: no gutter in front of its lines, and a
 * line wider than the screen cut into rows of the full width but one, the
 * last column holding `↩` to say the row goes on (the code's own columns
 * never hold a mark). The fences show as a frame's corners, `┌── lang`
 * and `└──`. `/copy` gives the code without even the marks.
 */
import { visibleWidth } from "@mariozechner/pi-tui";
import type { TuiTheme } from "./theme.ts";

/** A line of code cut into rows of at most `room` columns. */
export function codeRows(line: string, room: number): string[] {
  const rows: string[] = [];
  let row = "";
  let width = 0;
  for (const char of line) {
    const w = visibleWidth(char);
    if (width + w > room && row !== "") {
      rows.push(row);
      row = "";
      width = 0;
    }
    row += char;
    width += w;
  }
  rows.push(row);
  return rows;
}

/** The block's lines at `width`: the frame, and each code line in rows, wrapped rows marked. */
export function codeBlockLines(code: string, lang: string | undefined, width: number, theme: TuiTheme): string[] {
  const s = theme.style;
  const room = Math.max(1, width - 1);
  const lines = [s.dim(lang ? `┌── ${lang}` : "┌──")];
  for (const line of code.split("\n")) {
    const rows = codeRows(line, room);
    rows.forEach((row, i) => {
      const painted = theme.markdown.highlightCode ? theme.markdown.highlightCode(row, lang).join("") : row;
      lines.push(
        i < rows.length - 1 ? `${painted}${" ".repeat(Math.max(0, room - visibleWidth(row)))}${s.dim("↩")}` : painted,
      );
    });
  }
  lines.push(s.dim("└──"));
  return lines;
}
