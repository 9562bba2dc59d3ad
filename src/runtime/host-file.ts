import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CtxError } from "./ctx-error.ts";
import { listFiles, type ListedEntry } from "./list-files.ts";

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
      if (encoding !== undefined && encoding !== "utf8" && encoding !== "utf-8") {
        throw new CtxError(`ctx.file.read: unsupported encoding ${JSON.stringify(encoding)} (only "utf8")`, { typeError: true });
      }
      try {
        // TextDecoder replaces invalid UTF-8 with U+FFFD instead of failing.
        return new TextDecoder().decode(readFileSync(abs));
      } catch (error) {
        throw fsError("read", path as string, error);
      }
    },
    write(path, data, opts) {
      const abs = at("write", path);
      if (typeof data !== "string") throw new CtxError("ctx.file.write: data must be a string", { typeError: true });
      try {
        mkdirSync(dirname(abs), { recursive: true });
        if (optionOf(opts, "append") === true) appendFileSync(abs, data);
        else writeFileSync(abs, data);
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
};

function fsError(member: string, path: string, error: unknown): CtxError {
  const code = (error as { code?: string } | null)?.code ?? "";
  const reason = REASONS[code] ?? (code !== "" ? code : "failed");
  return new CtxError(`ctx.file.${member}: ${reason}: "${path}"`);
}
