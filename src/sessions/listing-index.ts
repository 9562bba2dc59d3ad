/**
 * The side index of one workspace directory (`.index.json`, 0600): for each
 * session file, the scan state at a byte offset plus the size, mtime and
 * inode it was taken at and the bytes just before the offset. It is only a
 * cache: any record that does not match the file is rescanned (from its
 * offset when the file only grew, else from the start), an unreadable index
 * is ignored, and it is replaced atomically (write a temp file, rename), so
 * a crash at any point leaves either the old or the new index.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "./json-fields.ts";
import type { ScanState } from "./scan-session.ts";

/** File name of the index inside a workspace directory (dot-files are never sessions). */
const INDEX_FILE = ".index.json";
// 2: states carry `lines` and `problem`; 3: `usage` and `cost`; 4: the active branch's switches (`leaf`, `branchKnown`, `thinking`). Older records are rescanned.
const INDEX_VERSION = 4;

/** What the index remembers about one session file. */
export interface IndexRecord {
  size: number;
  mtimeMs: number;
  ino: number;
  /** End of the last whole entry scanned; a later scan resumes here. */
  offset: number;
  /** Base64 of the bytes just before `offset`, to check the file was not rewritten. */
  tail: string;
  /** null: not a session (no header); skipped until the file changes. */
  state: ScanState | null;
}

/** Reads the index of `dir`; a missing or broken index is an empty one. */
export function readListingIndex(dir: string): Map<string, IndexRecord> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8"));
    if (!isRecord(parsed) || parsed.version !== INDEX_VERSION || !isRecord(parsed.files)) return new Map();
    return new Map(Object.entries(parsed.files as Record<string, IndexRecord>).filter(([, r]) => isIndexRecord(r)));
  } catch {
    return new Map();
  }
}

/** Replaces the index of `dir`; failures are ignored (the index is only a cache). */
export function writeListingIndex(dir: string, records: Map<string, IndexRecord>): void {
  const tmp = join(dir, `${INDEX_FILE}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(tmp, JSON.stringify({ version: INDEX_VERSION, files: Object.fromEntries(records) }), { mode: 0o600 });
    renameSync(tmp, join(dir, INDEX_FILE));
  } catch {
    rmSync(tmp, { force: true });
  }
}

function isIndexRecord(value: unknown): value is IndexRecord {
  return (
    isRecord(value) &&
    typeof value.size === "number" &&
    typeof value.mtimeMs === "number" &&
    typeof value.ino === "number" &&
    typeof value.offset === "number" &&
    typeof value.tail === "string" &&
    (value.state === null || isRecord(value.state))
  );
}
