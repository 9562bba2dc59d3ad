/**
 * The terminal pi-tui draws on, minus one sequence: its full redraw (after
 * a resize, or when the frame shrinks past the screen) writes `ESC[2J ESC[H
 * ESC[3J`, and `ESC[3J` erases the terminal's whole scrollback, what was
 * there before Rienda started included. Dropped here, the redraw clears
 * only the screen and draws the transcript again from its top: the
 * scrollback keeps the shell's history, and holds the conversation drawn
 * at the old width above the new drawing (docs/chat.md "The terminal").
 * pi-tui has no option for it (0.73: `fullRender` in tui.js writes it
 * unconditionally), hence the filter on its only way out.
 */
import { ProcessTerminal } from "@mariozechner/pi-tui";

const CLEAR_SCROLLBACK = "\x1b[3J";

export class ScrollbackKeepingTerminal extends ProcessTerminal {
  override write(data: string): void {
    super.write(data.includes(CLEAR_SCROLLBACK) ? data.replaceAll(CLEAR_SCROLLBACK, "") : data);
  }
}
