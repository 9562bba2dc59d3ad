/**
 * Views of the stored conversation: the read-only snapshot hooks receive and
 * the history sent to the model, repaired so that every provider accepts it
 * even after a crash (every tool call answered, user turns merged).
 */
import type { Block, Message, ToolResultBlock } from "../providers/index.ts";

/** Text of a tool call that never produced a result (interrupt or crash). */
export const MISSING_RESULT_TEXT = "the tool call was interrupted before it returned a result";

/** `messages` of beforeModelRequest: `[{ role, text }]`, a copy. */
export function snapshotForHooks(messages: Message[]): { role: string; text: string }[] {
  return messages.map((m) => ({ role: m.role, text: messageText(m) }));
}

/** Plain text of a message: its text blocks, or the text of its tool results. */
export function messageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "tool_result") parts.push(block.toolResult.map((b) => b.text).join(""));
  }
  return parts.join("\n");
}

/**
 * The history as sent to a provider: consecutive user messages merged (tool
 * results of one round travel together), a placeholder error result for every
 * tool call left unanswered, results without a matching call dropped.
 */
export function historyForRequest(messages: Message[]): Message[] {
  const out: Message[] = [];
  let pendingCalls: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      closePending(out, pendingCalls);
      pendingCalls = message.blocks.flatMap((b) => (b.type === "tool_call" ? [b.toolCallId] : []));
      out.push({ role: "assistant", blocks: [...message.blocks] });
      continue;
    }
    const blocks: Block[] = [];
    for (const block of message.blocks) {
      if (block.type !== "tool_result") {
        blocks.push(block);
        continue;
      }
      const index = pendingCalls.indexOf(block.toolResultCallId);
      if (index === -1) continue;
      pendingCalls.splice(index, 1);
      blocks.push(block);
    }
    if (blocks.some((b) => b.type !== "tool_result")) closePending(out, pendingCalls, blocks);
    if (blocks.length === 0) continue;
    appendUserBlocks(out, orderResultsFirst(blocks));
  }
  closePending(out, pendingCalls);
  return out;
}

function closePending(out: Message[], pending: string[], before?: Block[]): void {
  if (pending.length === 0) return;
  const placeholders: ToolResultBlock[] = pending.map((id) => ({
    type: "tool_result",
    toolResultCallId: id,
    toolResult: [{ type: "text", text: MISSING_RESULT_TEXT }],
    toolResultIsError: true,
  }));
  pending.length = 0;
  if (before) before.unshift(...placeholders);
  else appendUserBlocks(out, placeholders);
}

function appendUserBlocks(out: Message[], blocks: Block[]): void {
  const last = out[out.length - 1];
  if (last && last.role === "user") {
    last.blocks = orderResultsFirst([...last.blocks, ...blocks]);
  } else {
    out.push({ role: "user", blocks });
  }
}

/** Providers want tool results right after the call, before any new text. */
function orderResultsFirst(blocks: Block[]): Block[] {
  return [...blocks.filter((b) => b.type === "tool_result"), ...blocks.filter((b) => b.type !== "tool_result")];
}
