/**
 * What you sent while the agent works, until it is delivered
 * (docs/chat.md "While the agent works"): a follow-up (Enter) waits for the
 * turn to end, a steered message (Ctrl-S) goes into the turn before its
 * next request. Each is a line above the editor; Esc takes the last one
 * back into the editor, and an interrupt gives them all back.
 */
import type { Component } from "@mariozechner/pi-tui";
import type { QueueKind } from "../../conversation/index.ts";
import { terminalLine } from "../terminal-text.ts";
import { cut } from "./cut.ts";
import type { TuiTheme } from "./theme.ts";

/** One message waiting, with the conversation's id for it. */
export interface QueuedLine {
  id: number;
  kind: QueueKind;
  text: string;
}

export class QueuedMessages implements Component {
  #items: QueuedLine[] = [];

  constructor(private readonly theme: TuiTheme) {}

  get count(): number {
    return this.#items.length;
  }

  add(item: QueuedLine): void {
    this.#items.push(item);
  }

  /** The newest waiting message, out of the list (Esc takes it back). */
  takeLast(): QueuedLine | undefined {
    return this.#items.pop();
  }

  /** A message that reached the model (a steer delivered, a follow-up started) leaves the list. */
  delivered(kind: QueueKind, text: string): void {
    const index = this.#items.findIndex((item) => item.kind === kind && item.text === text);
    if (index !== -1) this.#items.splice(index, 1);
  }

  /** Every waiting message, out of the list, oldest first. */
  takeAll(): QueuedLine[] {
    return this.#items.splice(0);
  }

  render(width: number): string[] {
    const s = this.theme.style;
    return this.#items.map((item) => {
      const label = item.kind === "steer" ? "steering" : "queued";
      return cut(`  ${s.dim(`↳ ${label}:`)} ${terminalLine(item.text)}`, width);
    });
  }

  invalidate(): void {}
}
