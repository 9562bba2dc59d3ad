/**
 * Views of the stored conversation: the read-only snapshot hooks receive and
 * the history sent to the model, repaired so that every provider accepts it
 * even after a crash (every tool call answered, user turns merged).
 */
import type { AnswerCut, AttachmentBlock, Block, Message, ToolResultBlock } from "../providers/index.ts";

/** Text of a tool call that never produced a result (interrupt or crash). */
export const MISSING_RESULT_TEXT = "the tool call was interrupted before it returned a result";

/**
 * What the model reads at the start of the user turn after an answer cut
 * short while it streamed: the answer goes back exactly as far as it came,
 * and this says it is not a finished one.
 */
export const CUT_ANSWER_NOTES: Record<AnswerCut, string> = {
  user: "[The user interrupted your previous answer at this point; it is incomplete. What follows is a new message.]",
  limit:
    "[Your previous answer was stopped at this point by a run limit (time); it is incomplete. What follows is a new message.]",
};

/** An attachment as hooks see it (docs/hooks.md): what it is, without an image's or a PDF's bytes. */
export interface AttachmentSnapshot {
  name: string;
  mediaType: string;
  /** Size of the content in bytes. */
  bytes: number;
  /** A text attachment's content. */
  text?: string;
}

/** One message of beforeModelRequest's `messages`. */
export interface MessageSnapshot {
  role: string;
  text: string;
  /** Present only on a message that carries attachments, in their order. */
  attachments?: AttachmentSnapshot[];
}

/** `messages` of beforeModelRequest: `[{ role, text, attachments? }]`, a copy. */
export function snapshotForHooks(messages: Message[]): MessageSnapshot[] {
  return messages.map((m) => {
    const attachments = m.blocks.filter((b): b is AttachmentBlock => b.type === "attachment").map(attachmentSnapshot);
    return attachments.length > 0
      ? { role: m.role, text: messageText(m), attachments }
      : { role: m.role, text: messageText(m) };
  });
}

function attachmentSnapshot(block: AttachmentBlock): AttachmentSnapshot {
  if (block.text !== undefined)
    return {
      name: block.name,
      mediaType: block.mediaType,
      bytes: new TextEncoder().encode(block.text).length,
      text: block.text,
    };
  return { name: block.name, mediaType: block.mediaType, bytes: base64Bytes(block.data ?? "") };
}

/** Bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
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
 * tool call left unanswered, results without a matching call dropped, and an
 * answer cut short followed by a note saying so (CUT_ANSWER_NOTES).
 */
export function historyForRequest(messages: Message[]): Message[] {
  const out: Message[] = [];
  let pendingCalls: string[] = [];
  let cut: AnswerCut | undefined;
  for (const message of messages) {
    if (message.role === "assistant") {
      closePending(out, pendingCalls);
      pendingCalls = message.blocks.flatMap((b) => (b.type === "tool_call" ? [b.toolCallId] : []));
      out.push({ role: "assistant", blocks: [...message.blocks] });
      cut = message.interrupted;
      continue;
    }
    const blocks: Block[] = [];
    if (cut !== undefined) blocks.push({ type: "text", text: CUT_ANSWER_NOTES[cut] });
    cut = undefined;
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
