/**
 * The prompt of `rienda run` and what it carries (docs/pipelines.md):
 * `-p TEXT`, or `-p -` for all of stdin as the prompt; `-f PATH` files in
 * the order given (`-f -` is stdin, whatever it is); and piped stdin (any
 * stdin but a terminal: a pipe, a file, a socket, a device) as a document
 * before them, unless `--no-stdin`. An empty prompt is refused before any request; an
 * interrupt ends any reading at once.
 */
import {
  readFileAttachment,
  readStdinBytes,
  stdinIsData,
  stdinKind,
  sniffContent,
  attachmentFromBytes,
  MAX_TEXT_BYTES,
  type StdinKind,
} from "../../attachments/index.ts";
import { RiendaError } from "../../errors.ts";
import type { AttachmentBlock } from "../../providers/index.ts";
import { untilInterrupted } from "../../abort-race.ts";

/** The prompt and its attachments, read. */
export interface PromptInput {
  prompt: string;
  attachments: AttachmentBlock[];
}

/** What the command line said about the prompt. */
export interface PromptFlags {
  prompt: string | undefined;
  files: readonly string[];
  /** `--no-stdin`: piped stdin is not read. */
  readStdin: boolean;
}

/** Where the reading happens: the process's stdin and working directory, stderr for the waiting line. */
export interface PromptSources {
  stdin: NodeJS.ReadableStream;
  cwd: string;
  stderr: { write(text: string): unknown };
  /** Where Rienda's notice of waiting goes (the run's output: with --json also an event); stderr when absent. */
  notice?: (message: string) => void;
  signal: AbortSignal;
  /** What descriptor 0 is; read from the process when absent. */
  kind?: StdinKind;
}

export async function readPromptInput(flags: PromptFlags, sources: PromptSources): Promise<PromptInput> {
  const value = flags.prompt;
  if (value === undefined)
    throw new RiendaError("usage", "run: -p/--prompt is required (use -p - to read the prompt from stdin)");
  const stdinFiles = flags.files.filter((file) => file === "-").length;
  if (stdinFiles > 1) throw new RiendaError("usage", "run: -f - is given twice (stdin can be read once)");
  if (stdinFiles === 1 && value === "-")
    throw new RiendaError(
      "usage",
      "run: -p - and -f - both read stdin (it can be read once): give the prompt with -p TEXT",
    );
  if (value !== "-" && value.trim() === "") throw new RiendaError("usage", "run: the prompt is empty");
  // Files first: a missing one fails at once, without waiting for a slow pipe.
  const files = flags.files.map((file) => (file === "-" ? undefined : readFileAttachment(file, sources.cwd)));
  const kind = sources.kind ?? stdinKind();
  // Piped stdin beside a prompt is text or nothing: its bound is the text limit, and binary is refused from its first bytes.
  const read = (piped = false): Promise<Uint8Array> =>
    untilInterrupted(
      readStdinBytes(sources.stdin, {
        kind,
        onQuiet: () => waiting(sources),
        ...(piped ? { checkStart: refuseBinaryStart, limit: MAX_TEXT_BYTES, limitOf: "text" } : {}),
      }),
      sources.signal,
    );

  let prompt = value;
  const attachments: AttachmentBlock[] = [];
  if (value === "-") {
    prompt = textOfStdin(await read());
    if (prompt.trim() === "") throw new RiendaError("usage", "run: the prompt read from stdin is empty");
  } else if (stdinFiles === 0 && flags.readStdin) {
    if (stdinIsData(kind)) {
      const piped = pipedDocument(await read(true));
      if (piped) attachments.push(piped);
    }
  }
  for (const file of files) attachments.push(file ?? stdinAttachment(await read()));
  return { prompt, attachments };
}

const QUIET_STDIN =
  "waiting for stdin: it is not a terminal and nothing has come yet; it is read as data for the prompt; run with --no-stdin (or < /dev/null) if it is not meant for Rienda";

function waiting(sources: PromptSources): void {
  if (sources.notice) sources.notice(QUIET_STDIN);
  else sources.stderr.write(`rienda: ${QUIET_STDIN}\n`);
}

/** The prompt read with `-p -`: text, as it always was. */
function textOfStdin(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** Piped stdin beside `-p TEXT`: a text document, nothing when empty, refused when binary. */
function pipedDocument(bytes: Uint8Array): AttachmentBlock | undefined {
  if (bytes.length === 0) return undefined;
  refuseImageOrPdf(bytes);
  const block = attachmentFromBytes(bytes, "stdin", "stdin");
  return block.text?.trim() === "" ? undefined : block;
}

/**
 * Binary data is refused as soon as its first bytes show it (an image's
 * signature, a NUL byte), without reading the rest: `< /dev/zero` would
 * otherwise be read to the size limit first. Bytes that are not UTF-8 may
 * be a character cut by the chunk's end, so they wait for the whole.
 */
function refuseBinaryStart(bytes: Uint8Array): void {
  refuseImageOrPdf(bytes);
  // A NUL byte is never text: attachmentFromBytes refuses it, naming the offset.
  if (bytes.indexOf(0) !== -1) attachmentFromBytes(bytes, "stdin", "stdin");
}

function refuseImageOrPdf(bytes: Uint8Array): void {
  const content = sniffContent(bytes);
  if (content.kind === "binary") {
    throw new RiendaError(
      "usage",
      `stdin: holds ${content.label}, not text; to send it to the model, attach it with -f - (or -f FILE)`,
    );
  }
}

/** `-f -`: stdin as any attachment (text, image or PDF). */
function stdinAttachment(bytes: Uint8Array): AttachmentBlock {
  if (bytes.length === 0) throw new RiendaError("usage", "-f -: stdin is empty");
  return attachmentFromBytes(bytes, "stdin", "-f -");
}
