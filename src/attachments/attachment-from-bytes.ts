/**
 * Turns the bytes of one attachment into the block a prompt carries: text
 * as text, an image or a PDF as base64, anything else refused with what it
 * is. Each kind has its own size limit (limits.ts).
 */
import { RiendaError } from "../errors.ts";
import type { AttachmentBlock } from "../providers/index.ts";
import { MAX_IMAGE_BYTES, MAX_PDF_BYTES, MAX_TEXT_BYTES, sizeText } from "./limits.ts";
import { sniffContent } from "./sniff-content.ts";

/**
 * `name` is what the model and the session see (the path as given, or
 * `stdin`); `shown` is how messages name it (`-f notes.txt`, `stdin`).
 */
export function attachmentFromBytes(bytes: Uint8Array, name: string, shown: string): AttachmentBlock {
  const content = sniffContent(bytes);
  if (content.kind === "unknown") {
    throw new RiendaError("usage", `${shown}: cannot be attached: it holds ${content.reason}; Rienda attaches UTF-8 text, PNG, JPEG, GIF and WebP images, and PDFs`);
  }
  if (content.kind === "text") {
    if (bytes.length > MAX_TEXT_BYTES) throw tooLarge(shown, "text", bytes.length, MAX_TEXT_BYTES);
    return { type: "attachment", name, mediaType: "text/plain", text: content.text };
  }
  const limit = content.mediaType === "application/pdf" ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length > limit) throw tooLarge(shown, content.label, bytes.length, limit);
  return { type: "attachment", name, mediaType: content.mediaType, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") };
}

export function tooLarge(shown: string, what: string, bytes: number, limit: number): RiendaError {
  return new RiendaError("usage", `${shown}: is too large to attach (${sizeText(bytes)} of ${what}; the limit is ${sizeText(limit)})`);
}
