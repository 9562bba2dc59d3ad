/**
 * What you sent while the agent works, until it is delivered
 * (docs/chat.md "While the agent works"): a follow-up (Enter) waits for the
 * turn to end, a steered message (Ctrl-S) goes into the turn before its
 * next request. Each is a line above the editor, drawn from the
 * conversation's own queue, so a message leaves the list the moment the
 * conversation delivers it.
 */
import type { Component } from "@mariozechner/pi-tui";
import type { QueuedRow } from "../../conversation/index.ts";
import { terminalLine } from "../terminal-text.ts";
import { cut } from "./cut.ts";
import type { TuiTheme } from "./theme.ts";

export class QueuedMessages implements Component {
  /** `waiting`: the conversation's queue as it stands (empty before the conversation starts). */
  constructor(
    private readonly theme: TuiTheme,
    private readonly waiting: () => readonly QueuedRow[],
  ) {}

  get count(): number {
    return this.waiting().length;
  }

  render(width: number): string[] {
    const s = this.theme.style;
    return this.waiting().map((item) => {
      const label = item.kind === "steer" ? "steering" : "queued";
      return cut(`  ${s.dim(`↳ ${label}:`)} ${terminalLine(item.text)}`, width);
    });
  }

  invalidate(): void {}
}
