/**
 * The run loop's reading and editing of one assistant message: its text,
 * thinking and tool calls apart, the tool calls of an answer cut at
 * max_tokens dropped, and afterModelResponse rewrites put back into blocks.
 */
import type { AssistantResponse, Block, Message } from "../providers/index.ts";
import type { ToolCall } from "./types.ts";

/** The response without its tool calls when the answer was cut at max_tokens (issue 30); otherwise as it came. */
export function withoutCutCalls(response: AssistantResponse): AssistantResponse {
  if (response.stopReason !== "max_tokens" || !response.message.blocks.some((b) => b.type === "tool_call"))
    return response;
  return {
    ...response,
    message: { ...response.message, blocks: response.message.blocks.filter((b) => b.type !== "tool_call") },
  };
}

/** Text, thinking and tool calls of an assistant message. */
export function splitMessage(message: Message): { text: string; thinking: string; toolCalls: ToolCall[] } {
  let text = "";
  let thinking = "";
  const toolCalls: ToolCall[] = [];
  for (const block of message.blocks) {
    if (block.type === "text") text += block.text;
    else if (block.type === "thinking") thinking += block.thinking;
    else if (block.type === "tool_call")
      toolCalls.push({ id: block.toolCallId, name: block.toolCallName, arguments: block.toolCallArguments });
  }
  return { text, thinking, toolCalls };
}

/**
 * Applies afterModelResponse rewrites to the stored message: a rewritten text
 * or thinking replaces all blocks of its kind with one block in the place of
 * the first. A rewritten thinking loses its provider signature, which no
 * longer matches it.
 */
export function rewriteMessage(
  message: Message,
  original: { text: string; thinking: string },
  next: { text: string; thinking: string },
): Message {
  let blocks: Block[] = message.blocks;
  if (next.thinking !== original.thinking)
    blocks = replaceKind(blocks, "thinking", next.thinking ? { type: "thinking", thinking: next.thinking } : undefined);
  if (next.text !== original.text)
    blocks = replaceKind(blocks, "text", next.text ? { type: "text", text: next.text } : undefined);
  // A hook may empty the answer (hooks.md): it is stored as one empty text, so the turn still has its answer.
  if (blocks.length === 0) blocks = [{ type: "text", text: "" }];
  return { role: "assistant", blocks };
}

/** `blocks` with every block of `kind` gone and `replacement` (if any) where the first of them was. */
function replaceKind(blocks: Block[], kind: "text" | "thinking", replacement: Block | undefined): Block[] {
  const first = blocks.findIndex((b) => b.type === kind);
  const kept = blocks.filter((b) => b.type !== kind);
  if (!replacement) return kept;
  if (first !== -1) {
    const before = blocks.slice(0, first).filter((b) => b.type !== kind).length;
    return [...kept.slice(0, before), replacement, ...kept.slice(before)];
  }
  // New text goes before tool calls; new thinking goes first.
  const at = kind === "thinking" ? 0 : kept.findIndex((b) => b.type === "tool_call");
  return at === -1 ? [...kept, replacement] : [...kept.slice(0, at), replacement, ...kept.slice(at)];
}
