/**
 * `-f PATH`: one file read as an attachment, before anything is sent. A
 * path that is missing, a directory, unreadable or too large is refused
 * with the path as the user wrote it. Pipes and devices (`-f <(command)`)
 * are read to their end, up to the largest limit.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { RiendaError } from "../errors.ts";
import type { AttachmentBlock } from "../providers/index.ts";
import { attachmentFromBytes, kindOfHead, tooLarge, unattachable } from "./attachment-from-bytes.ts";
import { MAX_ATTACHMENT_BYTES, sizeText } from "./limits.ts";

/** Reads `path` (relative to `cwd`, the directory the command was started in). */
export function readFileAttachment(path: string, cwd: string): AttachmentBlock {
  const shown = `-f ${path}`;
  const absolute = resolve(cwd, path);
  let size: number;
  try {
    const stat = statSync(absolute);
    if (stat.isDirectory()) throw new RiendaError("usage", `${shown}: is a directory (attach its files one by one)`);
    size = stat.isFile() ? stat.size : 0;
  } catch (error) {
    if (error instanceof RiendaError) throw error;
    throw new RiendaError("usage", `${shown}: ${fileProblem(error)}`);
  }
  if (size > MAX_ATTACHMENT_BYTES) throw tooLargeFile(shown, absolute, size);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readBounded(absolute, MAX_ATTACHMENT_BYTES);
  } catch (error) {
    throw new RiendaError("usage", `${shown}: ${fileProblem(error)}`);
  }
  if (!bytes) throw new RiendaError("usage", `${shown}: is too large to attach (more than ${sizeText(MAX_ATTACHMENT_BYTES)})`);
  return attachmentFromBytes(bytes, path, shown);
}

/** A file beyond every limit, told by the limit of what its first bytes say it is. */
function tooLargeFile(shown: string, absolute: string, size: number): RiendaError {
  let head: Uint8Array;
  try {
    head = readBounded(absolute, HEAD_BYTES, true) ?? new Uint8Array();
  } catch (error) {
    return new RiendaError("usage", `${shown}: ${fileProblem(error)}`);
  }
  const kind = kindOfHead(head);
  if ("binary" in kind) return unattachable(shown, kind.binary);
  return tooLarge(shown, kind.what, size, kind.limit);
}

/** How much of a file tells what it holds. */
const HEAD_BYTES = 64 * 1024;

/** Reads at most `limit` bytes; undefined when there is more, without reading the rest (`cut`: the first `limit` bytes then). */
function readBounded(path: string, limit: number, cut = false): Uint8Array | undefined {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, limit + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limit) return cut ? Buffer.concat(chunks, total).subarray(0, limit) : undefined;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  if (code === "ENOTDIR") return "no such file (a part of the path is not a directory)";
  if (code === "EISDIR") return "is a directory (attach its files one by one)";
  return `cannot be read (${error instanceof Error ? error.message : String(error)})`;
}
