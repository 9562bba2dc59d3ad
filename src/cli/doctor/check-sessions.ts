/** Findings about the permissions of ~/.rienda/sessions: conversations are private (dirs 0700, files 0600). */
import { dirname } from "node:path";
import type { Finding } from "./types.ts";

/** One directory or file under the sessions directory, with its permission bits. */
export interface ModeEntry {
  path: string;
  kind: "dir" | "file";
  mode: number;
}

/** A warning per directory open to others, and one per directory holding files open to others. */
export function checkSessions(entries: readonly ModeEntry[]): Finding[] {
  const findings: Finding[] = [];
  const openFiles = new Map<string, ModeEntry[]>();
  for (const entry of entries) {
    if ((entry.mode & 0o077) === 0) continue;
    if (entry.kind === "dir") {
      findings.push({
        severity: "warning",
        check: "sessions",
        file: entry.path,
        message: `directory is open to other users (mode ${octal(entry.mode)}, should be 0700); sessions hold whole conversations`,
        hint: `chmod -R go-rwx ${entry.path}`,
      });
    } else {
      const dir = dirname(entry.path);
      openFiles.set(dir, [...(openFiles.get(dir) ?? []), entry]);
    }
  }
  for (const [dir, files] of openFiles) {
    const first = files[0]!;
    const what =
      files.length === 1 ? `${baseName(first.path)} is` : `${files.length} files (${baseName(first.path)}, ...) are`;
    findings.push({
      severity: "warning",
      check: "sessions",
      file: dir,
      message: `${what} readable or writable by other users (mode ${octal(first.mode)}; sessions should be 0600)`,
      hint: `chmod go-rwx ${dir}/*`,
    });
  }
  return findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
