/**
 * Whether a prompt's attachments can go to a model, checked once the model
 * is known and before anything is sent: each kind must be one its protocol
 * takes, an image must go to a model whose local server does not list its
 * input as text only, an image must be within the provider's own limit, and the text
 * must fit the context window (config.yaml's, or the local server's) (about four characters a
 * token, the estimate compaction uses too), so that a server never
 * truncates it without a word.
 */
import { RiendaError } from "../errors.ts";
import {
  attachmentKind,
  contextWindowText,
  protocolSends,
  type AttachmentBlock,
  type ResolvedModel,
} from "../providers/index.ts";
import { ANTHROPIC_MAX_IMAGE_BYTES, sizeText } from "./limits.ts";

export function checkAttachmentsFit(attachments: readonly AttachmentBlock[], model: ResolvedModel): void {
  const problems: string[] = [];
  let textChars = 0;
  for (const block of attachments) {
    const shown = block.name === "stdin" ? "stdin" : `-f ${block.name}`;
    const kind = attachmentKind(block);
    if (!protocolSends(model.protocol, block)) {
      problems.push(
        `${shown}: ${model.ref} cannot take ${kind === "pdf" ? "a PDF" : "it"}: its protocol ${model.protocol} takes text and images only (PDFs go to anthropic and openai_responses models)`,
      );
      continue;
    }
    const refusal = kind === "image" ? imageRefusal(model) : undefined;
    if (refusal) {
      problems.push(`${shown}: ${refusal}`);
      continue;
    }
    if (kind === "image" && model.protocol === "anthropic") {
      const bytes = Math.floor(((block.data ?? "").length * 3) / 4);
      if (bytes > ANTHROPIC_MAX_IMAGE_BYTES)
        problems.push(
          `${shown}: is too large for ${model.ref} (${sizeText(bytes)}; Anthropic takes images up to ${sizeText(ANTHROPIC_MAX_IMAGE_BYTES)})`,
        );
    }
    if (kind === "text") textChars += (block.text ?? "").length;
  }
  const window = model.contextWindow;
  const tokens = Math.ceil(textChars / 4);
  if (window !== undefined && tokens > window) {
    const what = attachments
      .filter((b) => b.mediaType === "text/plain")
      .map((b) => (b.name === "stdin" ? "stdin" : b.name));
    problems.push(
      `the attached text (${what.join(", ")}) is about ${tokens.toLocaleString("en-US")} tokens, more than the context window of ${model.ref} (${contextWindowText({ ...model, contextWindow: window })}); attach less, or use a model with a larger window`,
    );
  }
  if (problems.length > 0) throw new RiendaError("usage", problems.join("\n"));
}

/** Why a model's local server cannot take an image: it lists the model's input without one (server-input.ts). */
function imageRefusal(model: ResolvedModel): string | undefined {
  const input = model.serverInput;
  if (!input || input.modalities.includes("image")) return undefined;
  return `${model.ref} cannot take an image: its server lists the model's input as ${input.modalities.join(", ")} only (${input.source}); start the server with the model's vision projector (llama.cpp: --mmproj), or use a model that sees images`;
}
