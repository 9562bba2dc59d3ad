/**
 * What a slash command may use: the conversation, the renderer its report
 * goes to, and the screen's own ways to ask, to run a switch that can be
 * given up, to show its keys and to copy (chat-commands.ts and its helpers).
 */
import type { ChatRenderer } from "./chat-renderer.ts";
import type { ChatStyle } from "./chat-style.ts";
import type { Choice } from "./prompts.ts";
import type { ChatBackend } from "./types.ts";

/** What a command may use. */
export interface CommandContext {
  backend: ChatBackend;
  renderer: ChatRenderer;
  style: ChatStyle;
  width: () => number;
  /** Asks for one of `choices` (a picker); undefined when cancelled. */
  pick(message: string, choices: Choice[], initial?: string): Promise<string | undefined>;
  /**
   * Runs a switch (preparing an agent, starting its MCP servers) so that
   * Ctrl-C or a terminating signal gives up on it; `work` gets the signal.
   */
  interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The screen's keys for /help and /hotkeys, as two columns; the line chat's without it. */
  keys?: (style: ChatStyle, width: number) => string;
  /**
   * Hands text to the terminal's clipboard (the full-screen chat); /copy
   * says what to do without it. Returns why nothing was copied when the
   * terminal is known not to take it.
   */
  copy?: (text: string) => string | undefined;
}
