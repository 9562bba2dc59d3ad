/**
 * Piped stdin as data for a prompt (docs/pipelines.md). What stdin is
 * decides whether it is read: every stdin that is not a terminal is data
 * (a pipe, a regular file, a socket such as the stdin Node's and Bun's
 * child_process give, a character device such as `/dev/null`); a terminal
 * is never read. A stdin that sends nothing for a while gets a line on
 * stderr saying what Rienda waits for and how not to, and is waited for
 * still: the data may be slow to come (`make 2>&1 | rienda ...`).
 *
 * A regular file is read from its current offset, which is left at the
 * end, as `cat` does: `(read -r x; rienda run ...; cat) < list` sends what
 * the shell had not read yet, and `cat` gets nothing Rienda took.
 */
import { fstatSync } from "node:fs";
import { isatty } from "node:tty";
import { RiendaError } from "../errors.ts";
import { MAX_ATTACHMENT_BYTES, sizeText } from "./limits.ts";
import { readBounded } from "./read-bounded.ts";

/** What descriptor 0 is. */
export type StdinKind = "pipe" | "file" | "socket" | "device" | "terminal" | "closed";

export function stdinKind(): StdinKind {
  try {
    if (isatty(0)) return "terminal";
    const stat = fstatSync(0);
    if (stat.isFIFO()) return "pipe";
    if (stat.isFile()) return "file";
    if (stat.isSocket()) return "socket";
    return "device";
  } catch {
    // A closed descriptor 0 has nothing to give.
    return "closed";
  }
}

/** Whether a stdin of this kind is read as data: anything but a terminal (or no stdin at all). */
export function stdinIsData(kind: StdinKind): boolean {
  return kind !== "terminal" && kind !== "closed";
}

/** After this long without a byte, stderr says that Rienda waits for stdin. */
export const STDIN_QUIET_NOTICE_MS = 3_000;

/** Options of one read of stdin. */
export interface StdinRead {
  /** Said once on stderr when nothing has come after STDIN_QUIET_NOTICE_MS. */
  onQuiet?: () => void;
  /** How many bytes at most; more is an error. Default: the largest attachment. */
  limit?: number;
  /** What the limit is of, for its message (`text`: piped stdin beside a prompt is text or nothing). */
  limitOf?: string;
  /** Sees the first bytes that come, and may refuse them (throw) before the rest is read. */
  checkStart?: (bytes: Uint8Array) => void;
  /** What descriptor 0 is: a regular file is read from its offset, synchronously (it cannot stall). */
  kind?: StdinKind;
}

/** Reads all of stdin (`stream`, unless it is a regular file) as bytes, refusing more than the limit without reading the rest. */
export async function readStdinBytes(stream: NodeJS.ReadableStream, options: StdinRead = {}): Promise<Uint8Array> {
  const limit = options.limit ?? MAX_ATTACHMENT_BYTES;
  if (options.kind === "file") {
    // From the descriptor's own offset, which moves: see the header.
    const read = readBounded(0, limit, options.checkStart);
    if (read.over) throw tooLargeStdin(limit, options.limitOf);
    return read.bytes;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const quiet = options.onQuiet ? setTimeout(options.onQuiet, STDIN_QUIET_NOTICE_MS) : undefined;
  try {
    for await (const chunk of stream) {
      clearTimeout(quiet);
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      if (total === 0 && bytes.length > 0) options.checkStart?.(bytes);
      total += bytes.length;
      if (total > limit) throw tooLargeStdin(limit, options.limitOf);
      chunks.push(bytes);
    }
  } finally {
    clearTimeout(quiet);
  }
  return Buffer.concat(chunks, total);
}

function tooLargeStdin(limit: number, of: string | undefined): RiendaError {
  return new RiendaError(
    "usage",
    `stdin: is too large to attach (more than ${sizeText(limit)}${of ? ` of ${of}, the limit for ${of}` : ""})`,
  );
}
