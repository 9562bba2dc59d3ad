/**
 * Steering: messages the user sends while a turn runs, delivered into that
 * turn at its next safe point (docs/conversation.md). A safe point is where
 * the history is whole: after the tool calls of an answer have their
 * results, before the next request. A message steered in while the final
 * answer streams keeps the turn going with one more request. Follow-ups,
 * which wait for the turn to end, are the conversation's, not the loop's.
 */
import type { AttachmentBlock } from "../providers/index.ts";
import type { Emit } from "./hook-chain.ts";
import type { SessionPort } from "./ports.ts";

/** One message steered into a running turn. */
export interface SteerMessage {
  text: string;
  /** Files it carries, stored before its text as a prompt's are. */
  attachments?: AttachmentBlock[];
}

/** Where the loop takes steered messages from. */
export interface SteeringPort {
  /** Whether a message waits to be delivered. */
  pending(): boolean;
  /** Every waiting message, oldest first; they are delivered and gone from the queue. */
  take(): SteerMessage[];
}

/** Stores every waiting steered message as a user message of the turn, and says so. */
export function deliverSteering(input: { steering?: SteeringPort; session: SessionPort; emit: Emit }): void {
  if (!input.steering?.pending()) return;
  for (const message of input.steering.take()) {
    const attachments = message.attachments ?? [];
    input.session.appendMessage({ role: "user", blocks: [...attachments, { type: "text", text: message.text }] });
    input.emit({ type: "steer", text: message.text, files: attachments.map((a) => a.name) });
  }
}
