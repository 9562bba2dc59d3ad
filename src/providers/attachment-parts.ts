/**
 * What every protocol shares about attachments (docs/pipelines.md): how a
 * text attachment reads as a delimited document, an image's or a PDF's
 * data URL, and which protocol takes which kind. The request builders put
 * the parts in the shape of their API.
 */
import type { AttachmentBlock, ProtocolName } from "./types.ts";

/** Kinds of attachments, as the protocols tell them apart. */
export type AttachmentKind = "text" | "image" | "pdf";

export function attachmentKind(block: AttachmentBlock): AttachmentKind {
  if (block.mediaType === "text/plain") return "text";
  return block.mediaType === "application/pdf" ? "pdf" : "image";
}

/**
 * A text attachment as the model reads it: the content between
 * `<document name="...">` and `</document>`, each on a line of its own, so
 * the data stays apart from the instruction that follows it.
 */
export function documentText(block: AttachmentBlock): string {
  const text = block.text ?? "";
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `<document name="${escapeAttribute(block.name)}">\n${body}</document>`;
}

/** `data:<media type>;base64,<data>`: how both OpenAI protocols take inline images and files. */
export function dataUrl(block: AttachmentBlock): string {
  return `data:${block.mediaType};base64,${block.data ?? ""}`;
}

/** The kinds each protocol can send; the replay provider reads nothing of a request. */
const SENDS: Record<ProtocolName, readonly AttachmentKind[]> = {
  openai_chat_completions: ["text", "image"],
  openai_responses: ["text", "image", "pdf"],
  anthropic: ["text", "image", "pdf"],
  replay: ["text", "image", "pdf"],
};

/** Whether a model of `protocol` can be sent this attachment. */
export function protocolSends(protocol: ProtocolName, block: AttachmentBlock): boolean {
  return SENDS[protocol].includes(attachmentKind(block));
}

/**
 * What a history sends in place of an attachment its model's protocol cannot
 * take (a session with a PDF continued with a Chat Completions model): the
 * model learns that something was there and why it cannot see it.
 */
export function unsentAttachmentText(block: AttachmentBlock, protocol: ProtocolName): string {
  return `[attachment ${block.name} (${block.mediaType}) not sent: protocol ${protocol} cannot take it]`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/\n/g, " ");
}
