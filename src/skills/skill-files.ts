/**
 * The files of a skill folder, and reading one of them without ever leaving
 * the folder: no absolute path, no `..` out of it, and no symbolic link
 * whose target lies outside it (the target is what is checked, not the name).
 * Only regular files of at most a tool result's size are read: a FIFO or a
 * device would block the run, and a huge file would be cut anyway.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { RESULT_CAP_BYTES } from "../tools/index.ts";
import { SKILL_FILE } from "./skills-dir.ts";

/** The most paths a listing shows; the rest are counted. */
export const MAX_LISTED_FILES = 200;

/**
 * The most entries a listing looks at: a skill shipping a dependency tree
 * (scripts/node_modules) must not cost every `skill` call a walk of tens of
 * thousands of files (about 100 ms per 50,000) on the run's thread.
 */
const MAX_WALKED_ENTRIES = 5000;

/** What a listing found: relative paths with "/" separators, sorted, and how many more there were. */
export interface SkillFileList {
  files: string[];
  more: number;
  /** The walk stopped at its limit: `more` is a lower bound. */
  cut?: boolean;
}

/**
 * Every file under `dir` except its SKILL.md, as paths relative to it.
 * Hidden entries are skipped; a symbolic link is listed when its target is a
 * file inside the folder, and never descended into.
 */
export function listSkillFiles(dir: string): SkillFileList {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return { files: [], more: 0 };
  }
  const files: string[] = [];
  let more = 0;
  let walked = 0;
  let cut = false;
  const walk = (absolute: string, prefix: string): void => {
    if (cut) return;
    let names: string[];
    try {
      names = readdirSync(absolute).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      if (++walked > MAX_WALKED_ENTRIES) {
        cut = true;
        return;
      }
      const path = join(absolute, name);
      const shown = prefix === "" ? name : `${prefix}/${name}`;
      let isFile = false;
      try {
        const link = lstatSync(path);
        if (link.isDirectory()) {
          walk(path, shown);
          continue;
        }
        isFile =
          link.isFile() || (link.isSymbolicLink() && statSync(path).isFile() && inside(root, realpathSync(path)));
      } catch {
        continue;
      }
      if (!isFile || shown === SKILL_FILE) continue;
      if (files.length < MAX_LISTED_FILES) files.push(shown);
      else more++;
    }
  };
  walk(root, "");
  return cut ? { files, more, cut } : { files, more };
}

/** A file's text, or why it cannot be given. */
export type SkillFileRead = { ok: true; text: string } | { ok: false; message: string };

/** Reads `path` (relative to the skill folder `dir`), refusing anything outside the folder. */
export function readSkillFile(dir: string, path: string): SkillFileRead {
  const refuse = (message: string): SkillFileRead => ({ ok: false, message });
  if (path.trim() === "")
    return refuse("file must not be empty: give a path inside the skill folder, like references/guide.md");
  if (path.includes("\0"))
    return refuse(
      `file ${JSON.stringify(path)} contains a NUL character, which no file name can hold: give a path inside the skill folder, like references/guide.md`,
    );
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path))
    return refuse(`file "${path}" is an absolute path: give a path inside the skill folder, like references/guide.md`);
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return refuse(`the skill folder ${dir} is gone`);
  }
  const target = resolve(root, path);
  if (!inside(root, target))
    return refuse(`file "${path}" is outside the skill folder: only files inside it can be read`);
  let real: string;
  try {
    real = realpathSync(target);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return refuse(`the skill has no file "${path}"${suggestions(dir)}`);
    return refuse(`file "${path}" cannot be read: ${(cause as Error).message}`);
  }
  if (!inside(root, real))
    return refuse(`file "${path}" is a link to a place outside the skill folder: only files inside it can be read`);
  let bytes: Uint8Array;
  try {
    const stat = statSync(real);
    if (stat.isDirectory())
      return refuse(`"${path}" is a directory, not a file${suggestions(real, relative(root, real))}`);
    if (!stat.isFile())
      return refuse(`file "${path}" is not a regular file (a pipe, socket or device), so it is not read`);
    if (stat.size > RESULT_CAP_BYTES) {
      return refuse(
        `file "${path}" is ${stat.size} bytes, more than the ${RESULT_CAP_BYTES / 1024} KiB a tool result holds; it can be used where it is (${real}), with a tool that reads part of it`,
      );
    }
    bytes = readFileSync(real);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse(
      `file "${path}" cannot be read: ${code === "EACCES" ? "permission denied" : (cause as Error).message}`,
    );
  }
  if (bytes.includes(0))
    return refuse(
      `file "${path}" is binary (${bytes.length} bytes), not text; it can be used where it is, with the path the skill gives`,
    );
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/** True when `path` is `root` or below it. */
function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** " (files: a, b, ...)" for a message about a path that is not there. */
function suggestions(dir: string, prefix = ""): string {
  const { files, more, cut } = listSkillFiles(dir);
  if (files.length === 0) return prefix === "" ? " (it has no files besides SKILL.md)" : " (it holds no files)";
  const shown = files.slice(0, 20).map((f) => (prefix === "" ? f : `${prefix}/${f}`));
  const rest = files.length - shown.length + more;
  return ` (files: ${shown.join(", ")}${rest > 0 || cut ? `, and ${cut ? "at least " : ""}${rest} more` : ""})`;
}
