/** Host side: `ctx.file.list`, bounded and relative to the workdir. */
import { readdirSync, statSync, type Dirent } from "node:fs";
import { readRegularFile } from "./read-regular-file.ts";
import { join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/** One entry of `ctx.file.list`. */
export interface ListedEntry {
  name: string;
  /** Relative to the workdir, "/"-separated. */
  path: string;
  isDir: boolean;
}

/** Options of `ctx.file.list`. */
export interface ListOptions {
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
export function listFiles(workdir: string, dir: string, options: ListOptions): ListedEntry[] {
  const out: ListedEntry[] = [];
  const levels: IgnoreLevel[] = [];
  if (options.respectIgnoreFiles) {
    for (const ancestor of ancestorsWithin(workdir, dir)) pushLevel(levels, ancestor);
  }
  walk(workdir, dir, options, levels, out, true);
  return out;
}

function walk(workdir: string, dir: string, options: ListOptions, levels: IgnoreLevel[], out: ListedEntry[], top: boolean): void {
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
