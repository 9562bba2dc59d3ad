/**
 * Writing a small file so that a reader never sees half of it: the text goes
 * to a temporary file beside the target (same directory, so the rename stays
 * on one file system), created with the final mode, then renamed over the
 * target. Used for the files of ~/.rienda that the Go program writes the
 * same way (credentials.json, state.json, cache/ and store/ entries).
 */
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Writes `text` to `path` atomically with `mode` (the directory is created 0700 when missing). */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(temporary, "wx", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    // The umask may have narrowed the mode at creation; the file ends with exactly `mode`.
    chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** JSON as the Go program writes its files: keys sorted at every level, two-space indent, a final newline. */
export function sortedJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
