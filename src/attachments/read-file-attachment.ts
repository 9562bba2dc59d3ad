/**
 * `-f PATH`: one file read as an attachment, before anything is sent. A
 * path that is missing, a directory, unreadable or too large is refused
 * with the path as the user wrote it. Pipes and devices (`-f <(command)`)
 * are read to their end, up to the largest limit.
 */
import { closeSync, openSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { RiendaError } from "../errors.ts";
import type { AttachmentBlock } from "../providers/index.ts";
import { attachmentFromBytes, kindOfHead, tooLarge, unattachable } from "./attachment-from-bytes.ts";
import { MAX_ATTACHMENT_BYTES, sizeText } from "./limits.ts";
import { readBounded, type BoundedRead } from "./read-bounded.ts";

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
    const read = readPath(absolute, MAX_ATTACHMENT_BYTES);
    bytes = read.over ? undefined : read.bytes;
  } catch (error) {
    throw new RiendaError("usage", `${shown}: ${fileProblem(error)}`);
  }
  if (!bytes)
    throw new RiendaError("usage", `${shown}: is too large to attach (more than ${sizeText(MAX_ATTACHMENT_BYTES)})`);
  return attachmentFromBytes(bytes, path, shown);
}

/** A file beyond every limit, told by the limit of what its first bytes say it is. */
function tooLargeFile(shown: string, absolute: string, size: number): RiendaError {
  let head: Uint8Array;
  try {
    const read = readPath(absolute, HEAD_BYTES);
    head = read.over ? read.head : read.bytes;
  } catch (error) {
    return new RiendaError("usage", `${shown}: ${fileProblem(error)}`);
  }
  const kind = kindOfHead(head);
  if ("binary" in kind) return unattachable(shown, kind.binary);
  return tooLarge(shown, kind.what, size, kind.limit);
}

/** How much of a file tells what it holds. */
const HEAD_BYTES = 64 * 1024;

/** The first `limit` bytes of the file at `path`, and whether there is more. */
function readPath(path: string, limit: number): BoundedRead {
  const fd = openSync(path, "r");
  try {
    return readBounded(fd, limit);
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
