/** What an assistant message with nothing to send says on the wire, so history stays valid. */
import type { Message } from "./types.ts";

/**
 * What an assistant message says on the wire when it holds nothing the
 * protocol can send as its answer: an answer that was only thinking (cut by
 * max_tokens, or whose text a hook removed) or that a hook emptied. Leaving
 * the message out would put two user turns side by side, which the APIs
 * merge into one (the next prompt glued onto the last); an empty text is
 * refused by Anthropic and by some Chat Completions servers. So the turn
 * stays, saying plainly that it was empty.
 */
export const EMPTY_ANSWER_TEXT = "[This answer was empty.]";

/** True when an assistant message has no visible text (whitespace is none) and no tool call. */
export function hasNoAnswer(message: Message): boolean {
  return !message.blocks.some(
    (block) => (block.type === "text" && block.text.trim() !== "") || block.type === "tool_call",
  );
}
