/** Host side: `ctx.file` (read, write, exists, list) within a workdir; files are read without ever blocking on a pipe. */
import {
  appendFileSync,
  closeSync,
  constants,
  type Dirent,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { CtxError } from "./ctx-error.ts";

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
    if (typeof path !== "string" || path === "")
      throw new CtxError(`ctx.file.${member}: path must be a non-empty string`, { typeError: true });
    return resolve(workdir, path);
  };
  return {
    read(path, opts) {
      const abs = at("read", path);
      const encoding = optionOf(opts, "encoding");
      // "utf8" is the only encoding (tools.md); its usual spellings and a null "no choice" mean it too.
      if (
        encoding !== undefined &&
        encoding !== null &&
        !(typeof encoding === "string" && /^utf-?8$/i.test(encoding))
      ) {
        throw new CtxError(`ctx.file.read: unsupported encoding ${JSON.stringify(encoding)} (only "utf8")`, {
          typeError: true,
        });
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
        } else replaceFile(abs, data);
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
  const temp = join(
    dirname(target),
    `.${basename(target)}.rienda-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
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
  return new CtxError(`ctx.file.${member}: ${fsReason(error)}: "${path}"`);
}

/** A file system failure in words ("no such file or directory"), its code when it has no words here. */
export function fsReason(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? "";
  return REASONS[code] ?? (code !== "" ? code : "failed");
}

/**
 * The bytes of a regular file. Anything else (a named pipe, a socket, a
 * device) is refused without reading (error code `ENOTREG`): the host reads
 * on Rienda's main thread, and a pipe with no writer (a trap a cloned
 * repository can set) or /dev/zero would block it for ever, deaf to
 * Ctrl-C. Opened without blocking, so that even opening a pipe returns at
 * once. A directory fails with `EISDIR`.
 */
export function readRegularFile(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!stat.isFile()) throw notRegular();
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The error a non-regular file gets. */
function notRegular(): Error {
  return Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
}

/** One entry of `ctx.file.list`. */
export interface ListedEntry {
  name: string;
  /** Relative to the workdir, "/"-separated. */
  path: string;
  isDir: boolean;
}

/** Options of `ctx.file.list`. */
interface ListOptions {
  recursive: boolean;
  respectIgnoreFiles: boolean;
}

interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

const IGNORE_FILES = [".gitignore", ".ignore"];

/**
 * Lists `dir` (absolute) depth-first, names sorted. With `respectIgnoreFiles`
 * every `.gitignore` and `.ignore` between the workdir and each entry applies
 * relative to its own directory, deeper files overriding outer ones as git
 * does, and `.git` itself is left out. Symbolic links to directories are
 * listed but not entered, so a link cycle cannot loop.
 */
function listFiles(workdir: string, dir: string, options: ListOptions): ListedEntry[] {
  const out: ListedEntry[] = [];
  const levels: IgnoreLevel[] = [];
  if (options.respectIgnoreFiles) {
    for (const ancestor of ancestorsWithin(workdir, dir)) pushLevel(levels, ancestor);
  }
  walk(workdir, dir, options, levels, out, true);
  return out;
}

function walk(
  workdir: string,
  dir: string,
  options: ListOptions,
  levels: IgnoreLevel[],
  out: ListedEntry[],
  top: boolean,
): void {
  const pushed = options.respectIgnoreFiles && pushLevel(levels, dir);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // The directory asked for must be readable; an unreadable one deeper down is skipped.
    if (top) throw error;
    entries = [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (options.respectIgnoreFiles && entry.name === ".git") continue;
    const abs = join(dir, entry.name);
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        isDir = statSync(abs).isDirectory();
      } catch {
        isDir = false;
      }
    }
    if (options.respectIgnoreFiles && isIgnored(levels, abs, isDir)) continue;
    out.push({ name: entry.name, path: toPosix(relative(workdir, abs)), isDir });
    if (isDir && options.recursive && !entry.isSymbolicLink()) walk(workdir, abs, options, levels, out, false);
  }
  if (pushed) levels.pop();
}

function pushLevel(levels: IgnoreLevel[], dir: string): boolean {
  let rules: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      // A .gitignore that is a named pipe must not freeze the listing.
      text = new TextDecoder().decode(readRegularFile(join(dir, name)));
    } catch {
      continue;
    }
    rules ??= ignore();
    rules.add(text);
  }
  if (!rules) return false;
  levels.push({ base: dir, rules });
  return true;
}

function isIgnored(levels: IgnoreLevel[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const rel = toPosix(relative(level.base, abs));
    if (rel === "" || rel.startsWith("../")) continue;
    const verdict = level.rules.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/** Directories from the workdir down to (excluding) `dir`, when `dir` lies inside the workdir. */
function ancestorsWithin(workdir: string, dir: string): string[] {
  const rel = relative(workdir, dir);
  if (rel === "" || rel.startsWith("..") || resolve(workdir, rel) !== dir) return [];
  const parts = rel.split(sep);
  const out = [workdir];
  for (let i = 1; i < parts.length; i++) out.push(join(workdir, ...parts.slice(0, i)));
  return out;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
