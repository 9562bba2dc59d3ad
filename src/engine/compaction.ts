/**
 * The pure parts of compaction: when the history is too long for the
 * model's window, where to cut it (always at the start of a user turn, so a
 * tool call is never separated from its result), and the summary request.
 * Token counts are estimates (about four characters a token) unless the
 * provider reported real ones.
 */
import type { Block, Message } from "../providers/index.ts";
import { base64Bytes, messageText } from "./conversation.ts";

/** The compaction settings of config.yaml, as the engine needs them. */
export interface CompactionPolicy {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

/** System prompt of the summary request. */
export const SUMMARY_SYSTEM_PROMPT = [
  "You condense a conversation between a user and an AI assistant that uses tools,",
  "so that the assistant can continue the work without the full transcript.",
  "Keep: the user's goals and constraints, decisions made, facts learned (file names,",
  "paths, values, errors), what was done with which tools and what is left to do.",
  "Drop: pleasantries, repetition, raw tool output that is no longer needed.",
  "Write plain prose and short lists, in the language of the conversation.",
].join(" ");

/** A rough token count of a message: its JSON length in characters / 4, attachments apart. */
export function estimateTokens(message: Message): number {
  let tokens = 0;
  const rest: Block[] = [];
  for (const block of message.blocks) {
    if (block.type === "attachment" && block.data !== undefined)
      tokens += binaryAttachmentTokens(block.mediaType, base64Bytes(block.data));
    else rest.push(block);
  }
  return tokens + Math.ceil(JSON.stringify(rest).length / 4);
}

/**
 * What an image or a PDF costs in the context, roughly: an image is billed
 * by its pixels, not its bytes (Anthropic's ~1,600 tokens for a megapixel,
 * OpenAI's tiles), so a fixed figure is closer than a count of bytes; a
 * PDF's pages carry text and an image each, about one token per 20 bytes of
 * a typical file.
 */
function binaryAttachmentTokens(mediaType: string, bytes: number): number {
  return mediaType === "application/pdf" ? Math.max(1_600, Math.ceil(bytes / 20)) : 1_600;
}

/** Whether a history of `tokens` leaves less than the reserve free in the window. */
export function needsCompaction(policy: CompactionPolicy, contextWindow: number | undefined, tokens: number): boolean {
  if (!policy.enabled || contextWindow === undefined) return false;
  return tokens + policy.reserveTokens > contextWindow;
}

/** A user message that starts a turn: it carries text, not only tool results. */
function startsTurn(message: Message): boolean {
  return message.role === "user" && message.blocks.some((b) => b.type === "text" || b.type === "attachment");
}

/**
 * Index of the first message to keep verbatim: the newest messages worth
 * about `keepRecentTokens` are kept, moved to a turn start (the first one at
 * or after that point, else the start of the current turn). Undefined when
 * nothing before it could be condensed.
 */
export function keptIndex(messages: Message[], keepRecentTokens: number): number | undefined {
  let recent = 0;
  let point = messages.length;
  while (point > 0 && recent < keepRecentTokens) {
    point--;
    recent += estimateTokens(messages[point]!);
  }
  let kept = -1;
  for (let i = point; i < messages.length; i++) {
    if (startsTurn(messages[i]!)) {
      kept = i;
      break;
    }
  }
  if (kept === -1) {
    for (let i = point - 1; i >= 0; i--) {
      if (startsTurn(messages[i]!)) {
        kept = i;
        break;
      }
    }
  }
  return kept > 0 ? kept : undefined;
}

/**
 * The conversation as one plain-text transcript for the summary request:
 * every protocol accepts it, with or without tool definitions.
 */
export function transcript(messages: Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of message.blocks) {
      if (block.type === "text") lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${block.text}`);
      else if (block.type === "attachment") {
        lines.push(
          block.text !== undefined
            ? `User attached ${block.name}:\n${block.text}`
            : `User attached ${block.name} (${block.mediaType}, not shown here)`,
        );
      } else if (block.type === "tool_call")
        lines.push(`Assistant called ${block.toolCallName} ${JSON.stringify(block.toolCallArguments)}`);
      else if (block.type === "tool_result") {
        lines.push(
          `Tool result${block.toolResultIsError ? " (error)" : ""}: ${block.toolResult.map((b) => b.text).join("")}`,
        );
      }
    }
  }
  return lines.join("\n\n");
}

/** The user message of the summary request. */
export function summaryRequestMessage(messages: Message[]): Message {
  const text = `<conversation>\n${transcript(messages)}\n</conversation>\n\nWrite the summary of the conversation above now.`;
  return { role: "user", blocks: [{ type: "text", text }] };
}

/** Plain text of the summary the model answered. */
export function summaryText(answer: Message): string {
  return messageText(answer).trim();
}
