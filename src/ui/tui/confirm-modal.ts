/**
 * A question from a tool or hook (`ctx.confirm`), in place of the editor
 * until it is answered: the title, the body (the call's details), and
 * `[y/N]`. `y` answers yes; `n`, Enter, Esc answer no; Ctrl-C answers no
 * and interrupts the turn, as in the line chat. Other keys are ignored.
 */
import { matchesKey, wrapTextWithAnsi, type Component, type Focusable } from "@mariozechner/pi-tui";
import { cut } from "./cut.ts";
import { terminalLine, terminalSafe } from "../terminal-text.ts";
import type { TuiTheme } from "./theme.ts";

/** How a question was answered; `interrupt` when it was Ctrl-C. */
export type ConfirmAnswer = { yes: boolean; interrupt: boolean };

export class ConfirmModal implements Component, Focusable {
  focused = false;

  constructor(
    private readonly theme: TuiTheme,
    readonly title: string,
    readonly body: string,
    private readonly answer: (answer: ConfirmAnswer) => void,
  ) {}

  handleInput(data: string): void {
    if (data === "y" || data === "Y") this.answer({ yes: true, interrupt: false });
    else if (matchesKey(data, "ctrl+c")) this.answer({ yes: false, interrupt: true });
    else if (
      data === "n" ||
      data === "N" ||
      matchesKey(data, "enter") ||
      matchesKey(data, "escape") ||
      matchesKey(data, "ctrl+d")
    )
      this.answer({ yes: false, interrupt: false });
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const lines = [
      s.warn("─".repeat(width)),
      cut(`${s.warn("?")} ${s.bold(terminalLine(this.title || "Confirm"))}`, width),
    ];
    for (const line of terminalSafe(this.body).split("\n"))
      if (this.body) for (const piece of wrapTextWithAnsi(line, Math.max(1, width - 2))) lines.push(`  ${piece}`);
    lines.push(`  ${s.dim("[y/N]")} ${s.dim("y yes · n, Enter or Esc no · Ctrl-C no and interrupt")}`);
    return lines.map((line) => cut(line, width));
  }
}
