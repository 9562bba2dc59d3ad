/**
 * The interactive chat screen (`rienda` in a terminal): the input line,
 * rendering of engine events, slash commands, pickers and questions.
 * Invariants: only one thing reads the terminal at a time (line editor,
 * turn watcher or a question); everything shown goes through one renderer
 * so blocks never interleave mid-line. Must not touch config, agents or
 * sessions itself: it works through the ChatBackend the command supplies,
 * and never exits the process.
 */
export {
  createChatScreen,
  modelQuestion,
  type ChatEnd,
  type ChatScreen,
  type ChatScreenOptions,
  type ChatTerminal,
} from "./chat-screen.ts";
export { createChatStyle, plainStyle, type ChatStyle } from "./chat-style.ts";
export { ChatRenderer, type RendererOptions } from "./chat-renderer.ts";
export { CHAT_COMMANDS, parseInput, suggestCommand, type ChatCommandSpec, type ChatInput } from "./parse-input.ts";
export { StreamWrapper, truncateToWidth, wrapText, type WrapOptions } from "./wrap-text.ts";
export {
  elapsedText,
  firstLineOf,
  lastLineOf,
  shortArguments,
  toolCallParts,
  turnSummaryText,
  usageText,
  wordCount,
} from "./format-lines.ts";
export { recap, type Recap, type RecapItem } from "./recap.ts";
export { localTime, sessionLines } from "./session-lines.ts";
export {
  helpText,
  runChatCommand,
  twoColumns,
  showResumed,
  type CommandContext,
  type CommandEffect,
} from "./chat-commands.ts";
export { modelText, NOTHING_OFFERED } from "./model-commands.ts";
export type { Choice } from "./prompts.ts";
export type { AgentRow, ChatBackend, ChatStatus, HistoryItem, SessionRow, ToolRow, TreeRow, TurnIo } from "./types.ts";
