/**
 * The line above the status line while a turn runs: a spinner, what the
 * turn is doing ("waiting for the model", the tool running, "compacting",
 * "waiting for your answer") and for how long, then the one key that
 * matters now. It redraws itself a few times a second while it is shown
 * and not at all otherwise, so an idle chat costs nothing.
 */
import type { Component } from "@mariozechner/pi-tui";
import type { EngineEvent } from "../../engine/index.ts";
import { elapsedText } from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import { cut } from "./cut.ts";
import type { TuiTheme } from "./theme.ts";

/** The spinner's frames; the tests know a running turn by them. */
export const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
const FRAME_MS = 120;

export class ActivityLine implements Component {
  #phase?: string;
  #since = 0;
  #hint = "";
  #timer?: ReturnType<typeof setInterval>;
  /** A question has the keyboard: its own line says which keys answer, this one says none. */
  asking = false;

  constructor(
    private readonly theme: TuiTheme,
    private readonly render_: () => void,
  ) {}

  /** Shows `phase` from now on, with `hint` (the keys that act on it); a new phase restarts the clock. */
  set(phase: string, hint: string): void {
    if (phase !== this.#phase) this.#since = Date.now();
    this.#phase = phase;
    this.#hint = hint;
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.render_, FRAME_MS);
      // The clock never keeps the program alive on its own.
      this.#timer.unref?.();
    }
  }

  /** Another hint for the phase going on (the keys changed: a message was queued). */
  hint(hint: string): void {
    this.#hint = hint;
  }

  /** The turn's events move the phase on. */
  event(event: EngineEvent): void {
    if (this.#phase === undefined || event.parent !== undefined) return;
    const hint = this.#hint;
    if (event.type === "text_delta") this.set("answering", hint);
    else if (event.type === "thinking_delta") this.set("thinking", hint);
    else if (event.type === "tool_call") this.set(terminalLine(event.name), hint);
    else if (event.type === "tool_result" || event.type === "retry") this.set("waiting for the model", hint);
    else if (event.type === "message_end")
      this.set(event.toolCalls[0] ? terminalLine(event.toolCalls[0].name) : "waiting for the model", hint);
    else if (event.type === "notice" && event.message.startsWith("compacting")) this.set("compacting", hint);
    else if (event.type === "notice" && /^compact(ed|ion)/.test(event.message)) this.set("waiting for the model", hint);
  }

  /** Nothing runs any more. */
  clear(): void {
    this.#phase = undefined;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  get shown(): boolean {
    return this.#phase !== undefined;
  }

  invalidate(): void {}

  render(width: number): string[] {
    if (this.#phase === undefined) return [];
    const s = this.theme.style;
    const now = Date.now();
    const frame = SPINNER[Math.floor(now / FRAME_MS) % SPINNER.length];
    const phase = this.asking ? "waiting for your answer" : `${this.#phase} ${elapsedText(now - this.#since)}`;
    const hint = this.asking || this.#hint === "" ? "" : s.dim(` · ${this.#hint}`);
    return [cut(`${s.warn(`${frame} ${phase}`)}${hint}`, width)];
  }
}
