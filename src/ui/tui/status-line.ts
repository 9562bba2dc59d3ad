/**
 * The status line under the editor: agent, model (and its thinking level, unless off), session, the tokens of
 * this chat (in / out, cache reads and writes), its cost when priced, and
 * how much of the model's context window the last request filled. While a
 * turn runs it says so, and how to interrupt it.
 */
import type { Component } from "@mariozechner/pi-tui";
import { cut } from "./cut.ts";
import type { EngineEvent } from "../../engine/index.ts";
import { dollarsText } from "../plain-printer.ts";
import type { ChatStatus } from "../chat/index.ts";
import type { TuiTheme } from "./theme.ts";

export class StatusLine implements Component {
  #input = 0;
  #output = 0;
  #cacheRead = 0;
  #cacheWrite = 0;
  #cost = 0;
  #priced = true;
  #context?: number;
  /** What the screen is doing, when not waiting for you ("thinking", "running shell", a notice). */
  activity?: string;

  constructor(private readonly theme: TuiTheme, private readonly status: () => ChatStatus) {}

  /** Counts a request's usage and cost (subagents' too: they are spent on this chat). */
  event(event: EngineEvent): void {
    if (event.type !== "message_end" || !event.usage) return;
    const u = event.usage;
    this.#input += u.inputTokens;
    this.#output += u.outputTokens;
    this.#cacheRead += u.cacheReadTokens ?? 0;
    this.#cacheWrite += u.cacheWriteTokens ?? 0;
    if (event.cost === undefined) this.#priced = false;
    else this.#cost += event.cost;
    // The context the next request starts from: everything this one read and wrote.
    if (event.parent === undefined) this.#context = u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0) + u.outputTokens;
  }

  /** A new session: its context is not the last one's. */
  resetContext(): void {
    this.#context = undefined;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const status = this.status();
    const n = (value: number) => value.toLocaleString("en-US");
    const parts = [`agent ${status.agent}`, `model ${status.model}`, status.sessionId ? `session ${status.sessionId}` : "new session"];
    if (status.thinking !== undefined && status.thinking !== "off") parts.splice(2, 0, `thinking ${status.thinking}`);
    const cache = this.#cacheRead + this.#cacheWrite > 0 ? ` (cache ${n(this.#cacheRead)} read / ${n(this.#cacheWrite)} written)` : "";
    parts.push(`${n(this.#input)} in / ${n(this.#output)} out${cache}`);
    if (this.#priced && this.#input + this.#output > 0) parts.push(dollarsText(this.#cost));
    if (status.contextWindow && this.#context !== undefined) parts.push(`context ${Math.min(100, Math.round((this.#context * 100) / status.contextWindow))}%`);
    // Every part is kept: what does not fit goes on a second line, never cut.
    const lines: string[] = [];
    let current = "";
    for (const part of parts) {
      if (current !== "" && [...current].length + 3 + [...part].length > width) {
        lines.push(current);
        current = part;
      } else current = current === "" ? part : `${current} · ${part}`;
    }
    lines.push(current);
    for (let i = 0; i < lines.length; i++) lines[i] = cut(s.dim(lines[i]!), width);
    if (this.activity) lines.unshift(cut(s.warn(`● ${this.activity}`), width));
    return lines;
  }
}
