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
  if (content.kind === "unknown") throw unattachable(shown, content.reason);
  if (content.kind === "text") {
    if (bytes.length > MAX_TEXT_BYTES) throw tooLarge(shown, "text", bytes.length, MAX_TEXT_BYTES);
    return { type: "attachment", name, mediaType: "text/plain", text: content.text };
  }
  const limit = content.mediaType === "application/pdf" ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length > limit) throw tooLarge(shown, content.label, bytes.length, limit);
  return {
    type: "attachment",
    name,
    mediaType: content.mediaType,
    data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
  };
}

/** Bytes of no kind Rienda attaches. */
export function unattachable(shown: string, reason: string): RiendaError {
  return new RiendaError(
    "usage",
    `${shown}: cannot be attached: it holds ${reason}; Rienda attaches UTF-8 text, PNG, JPEG, GIF and WebP images, and PDFs`,
  );
}

export function tooLarge(shown: string, what: string, bytes: number, limit: number): RiendaError {
  const [size, most] = sizesApart(bytes, limit);
  return new RiendaError("usage", `${shown}: is too large to attach (${size} of ${what}; the limit is ${most})`);
}

/**
 * Two sizes written so that they differ where they do: `10.0 MB` and
 * `10.0 MB` would read as equal, so sizes that round alike are written to
 * the byte (`10,485,761 bytes`; `10,485,760 bytes, 10.0 MB`).
 */
function sizesApart(bytes: number, limit: number): [string, string] {
  if (sizeText(bytes) !== sizeText(limit)) return [sizeText(bytes), sizeText(limit)];
  const exact = (n: number) => `${n.toLocaleString("en-US")} bytes`;
  return [exact(bytes), `${exact(limit)}, ${sizeText(limit)}`];
}

/**
 * What a file too large to read whole holds, from its first bytes, and the
 * limit of that kind: so that a 50 MB text file is told the text limit
 * (10 MB), not the largest of all (a PDF's).
 */
export function kindOfHead(head: Uint8Array): { what: string; limit: number } | { binary: string } {
  const content = sniffContent(head);
  if (content.kind === "binary")
    return { what: content.label, limit: content.mediaType === "application/pdf" ? MAX_PDF_BYTES : MAX_IMAGE_BYTES };
  const nul = head.indexOf(0);
  if (nul !== -1) return { binary: `binary data (a NUL byte at offset ${nul})` };
  return { what: "text", limit: MAX_TEXT_BYTES };
}
