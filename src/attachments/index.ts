/**
 * Attachments: what a prompt carries besides its text (docs/pipelines.md).
 * Reads `-f` files and piped stdin, tells text, images and PDFs apart by
 * their bytes, applies the size limits, and checks what a model can take
 * (its protocol, its context window) before anything is sent.
 *
 * Invariants: nothing here sends or writes anything; every refusal is a
 * RiendaError naming the file (or stdin) and the problem; a terminal is
 * never read.
 */
export { attachmentFromBytes } from "./attachment-from-bytes.ts";
export { checkAttachmentsFit } from "./fit-model.ts";
export { MAX_ATTACHMENT_BYTES, MAX_TEXT_BYTES, sizeText } from "./limits.ts";
export { readFileAttachment } from "./read-file-attachment.ts";
export {
  readStdinBytes,
  stdinIsData,
  stdinKind,
  STDIN_QUIET_NOTICE_MS,
  type StdinKind,
  type StdinRead,
} from "./read-stdin.ts";
export { sniffContent, type SniffedContent } from "./sniff-content.ts";
