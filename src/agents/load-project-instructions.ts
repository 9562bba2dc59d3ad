/** Project instructions: the workspace's `AGENTS.md`, else its `CLAUDE.md` (contract.md §1). */
import { Buffer } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { join } from "node:path";
import { RiendaError } from "../errors.ts";
import type { ProjectInstructions } from "./types.ts";
import { linkOutOfWorkspace, type OutsideLink } from "./workspace-link.ts";

/** Looked up in this order; the first that exists is used, even when empty. Names are exact. */
export const INSTRUCTION_FILES: readonly string[] = Object.freeze(["AGENTS.md", "CLAUDE.md"]);

/**
 * The most an instructions file may hold. It goes into every request's
 * system prompt; a file larger than this would not fit a model's context
 * anyway, and a workspace is not trusted to be reasonable.
 */
export const MAX_INSTRUCTIONS_BYTES = 1024 * 1024;

/**
 * Reads the first instructions file of `workspace`, or `undefined` when it has
 * none (a directory with such a name does not count). A file that exists but
 * cannot be read is a RiendaError naming it: silently dropping the project's
 * rules would be worse than stopping. So is one that is not a regular file
 * (a named pipe would block the read, and with it every signal, for ever;
 * a link to /dev/zero would never end) or is larger than
 * MAX_INSTRUCTIONS_BYTES: a cloned repository must not be able to hang or
 * exhaust Rienda. A file that a symbolic link leads out of the workspace is
 * skipped, as if absent, and handed to `onSkipped` (workspace-link.ts).
 */
export function loadProjectInstructions(
  workspace: string,
  onSkipped: (found: OutsideLink) => void = () => undefined,
): ProjectInstructions | undefined {
  for (const name of INSTRUCTION_FILES) {
    const file = join(workspace, name);
    const outside = linkOutOfWorkspace(workspace, file);
    if (outside) {
      onSkipped(outside);
      continue;
    }
    let fd: number;
    try {
      // Non-blocking: opening a named pipe for reading must not wait for a writer.
      fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") continue;
      throw unreadable(file, cause);
    }
    let text: string;
    try {
      const stat = fstatSync(fd);
      if (stat.isDirectory()) continue;
      if (!stat.isFile())
        throw new RiendaError(
          "workdir",
          `${file}: is not a regular file (${kindOf(stat)}); project instructions are read from plain files only`,
        );
      if (stat.size > MAX_INSTRUCTIONS_BYTES) {
        throw new RiendaError(
          "workdir",
          `${file}: is ${bytes(stat.size)}; project instructions may hold at most ${bytes(MAX_INSTRUCTIONS_BYTES)} (1 MiB)`,
        );
      }
      text = readAll(fd, stat.size);
    } catch (cause) {
      if (cause instanceof RiendaError) throw cause;
      throw unreadable(file, cause);
    } finally {
      closeSync(fd);
    }
    const normalized = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n").trim();
    return { file, text: normalized };
  }
  return undefined;
}

/** The file's bytes as UTF-8, at most one byte past MAX_INSTRUCTIONS_BYTES (a file growing while read is cut there). */
function readAll(fd: number, size: number): string {
  const buffer = Buffer.alloc(Math.min(size, MAX_INSTRUCTIONS_BYTES) + 1);
  let length = 0;
  while (length < buffer.length) {
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  return buffer.subarray(0, Math.min(length, MAX_INSTRUCTIONS_BYTES)).toString("utf8");
}

function unreadable(file: string, cause: unknown): RiendaError {
  const code = (cause as NodeJS.ErrnoException).code;
  const why = code === "EACCES" ? "permission denied" : (cause as Error).message;
  return new RiendaError("workdir", `${file}: cannot be read: ${why}`, { cause });
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return "a named pipe";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSocket()) return "a socket";
  return "not a file";
}

function bytes(count: number): string {
  return `${count.toLocaleString("en-US")} bytes`;
}
