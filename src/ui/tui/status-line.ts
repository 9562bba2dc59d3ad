/**
 * The status line under the editor: agent, model (and its thinking level,
 * unless off), the working directory and its git branch, the tokens of
 * this chat (in / out, cache reads and writes), its cost when priced (`≥`
 * once a request could not be priced), and how much of the model's
 * context window the last request of this session filled.
 */
import type { Component } from "@mariozechner/pi-tui";
import { cut } from "./cut.ts";
import type { EngineEvent } from "../../engine/index.ts";
import { dollarsText } from "../plain-printer.ts";
import type { ChatStatus } from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import type { TuiTheme } from "./theme.ts";

export class StatusLine implements Component {
  #input = 0;
  #output = 0;
  #cacheRead = 0;
  #cacheWrite = 0;
  #cost = 0;
  #priced = 0;
  #unpriced = 0;
  /** The last request's context, and the session it was in: another session's share is not shown. */
  #context?: { tokens: number; session: string | null };
  #branch?: string;

  constructor(
    private readonly theme: TuiTheme,
    private readonly status: () => ChatStatus,
    /** The git branch of the working directory, read again by `refresh` only (not at every frame). */
    private readonly gitBranch: () => string | undefined,
  ) {}

  /** Reads the git branch again (after a turn or a command: either may have switched it). */
  refresh(): void {
    this.#branch = this.gitBranch();
  }

  /** Counts a request's usage and cost (subagents' too: they are spent on this chat). */
  event(event: EngineEvent): void {
    if (event.type !== "message_end" || !event.usage) return;
    const u = event.usage;
    this.#input += u.inputTokens;
    this.#output += u.outputTokens;
    this.#cacheRead += u.cacheReadTokens ?? 0;
    this.#cacheWrite += u.cacheWriteTokens ?? 0;
    if (event.cost === undefined) this.#unpriced++;
    else {
      this.#priced++;
      this.#cost += event.cost;
    }
    // The context the next request starts from: everything this one read and wrote.
    const tokens = u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0) + u.outputTokens;
    if (event.parent === undefined) this.#context = { tokens, session: this.status().sessionId };
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const status = this.status();
    const n = (value: number) => value.toLocaleString("en-US");
    const parts = [`agent ${status.agent}`, `model ${status.model}`];
    if (status.thinking !== undefined && status.thinking !== "off") parts.push(`thinking ${status.thinking}`);
    if (status.workdir !== "")
      parts.push(`${homeShort(status.workdir)}${this.#branch ? ` (${terminalLine(this.#branch)})` : ""}`);
    const cache =
      this.#cacheRead + this.#cacheWrite > 0
        ? ` (cache ${n(this.#cacheRead)} read / ${n(this.#cacheWrite)} written)`
        : "";
    parts.push(`${n(this.#input)} in / ${n(this.#output)} out${cache}`);
    // A request without prices makes the sum a lower bound, said so rather than hidden.
    if (this.#priced > 0) parts.push(`${this.#unpriced > 0 ? "≥ " : ""}${dollarsText(this.#cost)}`);
    const context = this.#context;
    if (status.contextWindow && context !== undefined && context.session === status.sessionId) {
      parts.push(`context ${Math.min(100, Math.round((context.tokens * 100) / status.contextWindow))}%`);
    }
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
    return lines.map((line) => cut(s.dim(line), width));
  }
}

/** The directory with the home directory written `~`. */
function homeShort(dir: string): string {
  const home = process.env.HOME;
  const shown =
    home && home !== "/" && (dir === home || dir.startsWith(`${home}/`)) ? `~${dir.slice(home.length)}` : dir;
  return terminalLine(shown);
}
