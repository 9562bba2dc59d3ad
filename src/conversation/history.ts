/**
 * How the chat shows what a session holds: its history for the recap, and
 * the files attached to the next message.
 */
import { attachmentKind, type AttachmentBlock } from "../providers/index.ts";
import { sizeText } from "../attachments/index.ts";
import { FAILED_REQUEST_TEXT, INTERRUPTION_TEXT, LIMIT_STOP_TEXT, type SessionFile } from "../sessions/index.ts";
import type { HistoryItem } from "./types.ts";

/**
 * The session's history for the recap, with the texts it stands in for the
 * model marked for what they are: the answer of an interrupted or failed
 * request and the summary of a compaction read as the model's or the
 * user's words otherwise.
 */
export function historyOf(session: SessionFile): HistoryItem[] {
  const messages = session.messages();
  // With a compaction on the branch, the history starts with its summary.
  const condensed = session.branch().some((entry) => entry.kind === "compaction");
  return messages.map((message, index): HistoryItem => {
    if (condensed && index === 0) return { role: "condensed" };
    const only = message.blocks.length === 1 ? message.blocks[0] : undefined;
    if (message.role === "assistant" && only?.type === "text") {
      if (only.text === INTERRUPTION_TEXT) return { role: "ended", reason: "interrupted" };
      if (only.text === FAILED_REQUEST_TEXT) return { role: "ended", reason: "error" };
      if (only.text === LIMIT_STOP_TEXT) return { role: "ended", reason: "limit" };
    }
    return message;
  });
}

/** How the chat names an attachment: `notes.txt (text, 2 KB)`. */
export function attachmentRow(block: AttachmentBlock): { name: string; description: string } {
  const kind = attachmentKind(block);
  const bytes =
    block.text !== undefined
      ? new TextEncoder().encode(block.text).length
      : Math.floor(((block.data ?? "").length * 3) / 4);
  return { name: block.name, description: `${kind === "pdf" ? "PDF" : kind}, ${sizeText(bytes)}` };
}
