/**
 * How much a prompt may carry (docs/pipelines.md). Each figure is the
 * smallest a provider of the kind takes, so that a file refused by an API
 * after a long upload is refused here instead, before anything is sent.
 * Text is bounded by the model's context window when config.yaml gives one
 * (checked once the model is known, `fitsModel`); this cap is the bound of
 * reading at all.
 */

const MIB = 1024 * 1024;

/** Text read from one file or from stdin: beyond this, no model's window takes it anyway (~2.5M tokens). */
export const MAX_TEXT_BYTES = 10 * MIB;

/** One image: OpenAI takes up to 20 MB (50 MB a request); Anthropic 5 MB, checked per protocol (`fitsModel`). */
export const MAX_IMAGE_BYTES = 20 * MIB;

/** Anthropic's limit for one image of a Messages request. */
export const ANTHROPIC_MAX_IMAGE_BYTES = 5 * MIB;

/** One PDF: Anthropic's whole request may be 32 MB; OpenAI takes files up to 50 MB. */
export const MAX_PDF_BYTES = 32 * MIB;

/** The most any one attachment may hold, which is what is read before refusing it. */
export const MAX_ATTACHMENT_BYTES = Math.max(MAX_TEXT_BYTES, MAX_IMAGE_BYTES, MAX_PDF_BYTES);

/** "2.5 MB", "812 KB", "17 bytes": sizes in messages. */
export function sizeText(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}
