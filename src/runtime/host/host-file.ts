/** Host side: `ctx.file` (read, write, exists, list) within a workdir. */
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CtxError } from "./ctx-error.ts";
import { listFiles, type ListedEntry } from "./list-files.ts";
import { notRegular, readRegularFile } from "./read-regular-file.ts";

/** The host side of `ctx.file`, relative paths resolved against `workdir`. */
export interface FileHost {
  read(path: unknown, opts: unknown): string;
  write(path: unknown, data: unknown, opts: unknown): void;
  exists(path: unknown): boolean;
  list(path: unknown, opts: unknown): ListedEntry[];
}

/** Builds `ctx.file` for one workdir. Errors name the path as the module gave it, never an absolute host path. */
export function createFileHost(workdir: string): FileHost {
  const at = (member: string, path: unknown): string => {
    if (typeof path !== "string" || path === "") throw new CtxError(`ctx.file.${member}: path must be a non-empty string`, { typeError: true });
    return resolve(workdir, path);
  };
  return {
    read(path, opts) {
      const abs = at("read", path);
      const encoding = optionOf(opts, "encoding");
      // "utf8" is the only encoding (tools.md); its usual spellings and a null "no choice" mean it too.
      if (encoding !== undefined && encoding !== null && !(typeof encoding === "string" && /^utf-?8$/i.test(encoding))) {
        throw new CtxError(`ctx.file.read: unsupported encoding ${JSON.stringify(encoding)} (only "utf8")`, { typeError: true });
      }
      try {
        // TextDecoder replaces invalid UTF-8 with U+FFFD instead of failing;
        // ignoreBOM keeps a leading byte order mark, part of the content (a
        // tool that reads and writes a file back must not drop it).
        return new TextDecoder("utf-8", { ignoreBOM: true }).decode(readRegularFile(abs));
      } catch (error) {
        throw fsError("read", path as string, error);
      }
    },
    write(path, data, opts) {
      const abs = at("write", path);
      if (typeof data !== "string") throw new CtxError("ctx.file.write: data must be a string", { typeError: true });
      try {
        mkdirSync(dirname(abs), { recursive: true });
        if (optionOf(opts, "append") === true) {
          // Appending to a named pipe would wait for a reader on the main thread, deaf to Ctrl-C.
          if (existsSync(abs) && !statSync(abs).isFile() && !statSync(abs).isDirectory()) throw notRegular();
          appendFileSync(abs, data);
        }
        else replaceFile(abs, data);
      } catch (error) {
        throw fsError("write", path as string, error);
      }
    },
    exists(path) {
      return existsSync(at("exists", path));
    },
    list(path, opts) {
      const given = path === undefined || path === null ? "." : path;
      const abs = at("list", given);
      const recursive = optionOf(opts, "recursive") !== false;
      const respectIgnoreFiles = optionOf(opts, "respectIgnoreFiles") !== false;
      try {
        if (!statSync(abs).isDirectory()) throw new CtxError(`ctx.file.list: not a directory: "${given as string}"`);
        return listFiles(workdir, abs, { recursive, respectIgnoreFiles });
      } catch (error) {
        if (error instanceof CtxError) throw error;
        throw fsError("list", given as string, error);
      }
    },
  };
}

/**
 * Writes the whole file so that a reader (or a crash) sees either the old
 * content or the new one, never half of it: a temporary file in the same
 * folder, flushed, then renamed over the target. The file keeps its mode; a
 * symbolic link keeps pointing where it did (its target is replaced). A
 * folder we may not create files in, though the file itself is writable,
 * gets the plain in-place write rather than a failure.
 */
function replaceFile(path: string, data: string): void {
  let target = path;
  let mode = 0o666;
  if (existsSync(path)) {
    target = realpathSync(path);
    const stat = statSync(target);
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    mode = stat.mode & 0o7777;
  }
  const temp = join(dirname(target), `.${basename(target)}.rienda-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, "wx", mode);
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
      writeFileSync(target, data);
      return;
    }
    throw error;
  }
  try {
    try {
      const bytes = new TextEncoder().encode(data);
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function optionOf(opts: unknown, key: string): unknown {
  return opts !== null && typeof opts === "object" ? (opts as Record<string, unknown>)[key] : undefined;
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "already exists",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  ENOTREG: "not a regular file (a named pipe, a socket or a device, which could block for ever)",
};

function fsError(member: string, path: string, error: unknown): CtxError {
  const code = (error as { code?: string } | null)?.code ?? "";
  const reason = REASONS[code] ?? (code !== "" ? code : "failed");
  return new CtxError(`ctx.file.${member}: ${reason}: "${path}"`);
}
