/** Lists the `<name>/index.js` extension directories under a folder, without loading them. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionDiagnostic, ExtensionKind } from "./types.ts";
import { isFile } from "../values.ts";

/** One `<dir>/<name>/index.js` found on disk, not loaded yet. */
export interface ExtensionEntry {
  name: string;
  file: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The extension directories under `dir` (~/.rienda/tools or hooks), sorted.
 * Hidden entries, plain files and directories without index.js are skipped
 * silently; a directory whose name breaks the name rules is reported.
 * A missing `dir` simply has no extensions.
 */
export function listExtensionDirs(
  kind: ExtensionKind,
  dir: string,
): { entries: ExtensionEntry[]; diagnostics: ExtensionDiagnostic[] } {
  const entries: ExtensionEntry[] = [];
  const diagnostics: ExtensionDiagnostic[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { entries, diagnostics };
  }
  names.sort();
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const file = join(path, "index.js");
    if (!isDirectory(path) || !isFile(file)) continue;
    if (!NAME.test(name)) {
      diagnostics.push(diagnostic(kind, name, path, 'invalid name (use 1 to 64 letters, digits, "_" or "-")'));
      continue;
    }
    entries.push({ name, file });
  }
  return { entries, diagnostics };
}

/** Builds a diagnostic with its user-facing line. */
export function diagnostic(kind: ExtensionKind, name: string, file: string, problem: string): ExtensionDiagnostic {
  return { kind, name, file, problem, message: `${kind} "${name}": ${problem}` };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
