/**
 * Piped stdin as data for a prompt (docs/pipelines.md). What stdin is
 * decides whether it is read: a pipe (`cat notes | rienda run ...`) or a
 * regular file (`< notes`) is data; a terminal is never read; anything else
 * (`/dev/null`, a socket such as the stdin Node's child_process gives by
 * default, which a program often leaves open) is left alone unless asked
 * for with `-f -` or `-p -`. A stdin that sends nothing for a while gets a
 * line on stderr saying what Rienda waits for and how not to, and is
 * waited for still: the data may be slow to come (`make 2>&1 | rienda ...`).
 */
import { fstatSync } from "node:fs";
import { isatty } from "node:tty";
import { RiendaError } from "../errors.ts";
import { MAX_ATTACHMENT_BYTES, sizeText } from "./limits.ts";

/** What descriptor 0 is. */
export type StdinKind = "pipe" | "file" | "terminal" | "other";

export function stdinKind(): StdinKind {
  try {
    if (isatty(0)) return "terminal";
    const stat = fstatSync(0);
    if (stat.isFIFO()) return "pipe";
    if (stat.isFile()) return "file";
    return "other";
  } catch {
    // A closed descriptor 0 has nothing to give.
    return "other";
  }
}

/** After this long without a byte, stderr says that Rienda waits for stdin. */
export const STDIN_QUIET_NOTICE_MS = 3_000;

/** Options of one read of stdin. */
export interface StdinRead {
  /** Said once on stderr when nothing has come after STDIN_QUIET_NOTICE_MS. */
  onQuiet?: () => void;
  /** How many bytes at most; more is an error. Default: the largest attachment. */
  limit?: number;
}

/** Reads all of `stream` as bytes, refusing more than the limit without reading the rest. */
export async function readStdinBytes(stream: NodeJS.ReadableStream, options: StdinRead = {}): Promise<Uint8Array> {
  const limit = options.limit ?? MAX_ATTACHMENT_BYTES;
  const chunks: Buffer[] = [];
  let total = 0;
  const quiet = options.onQuiet ? setTimeout(options.onQuiet, STDIN_QUIET_NOTICE_MS) : undefined;
  try {
    for await (const chunk of stream) {
      clearTimeout(quiet);
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      total += bytes.length;
      if (total > limit) throw new RiendaError("usage", `stdin: is too large to attach (more than ${sizeText(limit)})`);
      chunks.push(bytes);
    }
  } finally {
    clearTimeout(quiet);
  }
  return Buffer.concat(chunks, total);
}
