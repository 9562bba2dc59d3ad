/**
 * Lists a workspace's sessions, newest first, without parsing whole files:
 * an unchanged file costs one stat (its summary comes from the side index),
 * a file that grew is read from where the index stopped, and only a new or
 * rewritten file is scanned from the start (scan-session.ts: line kinds are
 * told by their first bytes, few lines are parsed). Only a file whose active
 * leaf jumped to another branch since the last listing is loaded whole, to
 * know which switches apply there.
 */
import { Buffer } from "node:buffer";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { thinkingLevelOf } from "./branch-switches.ts";
import { readListingIndex, writeListingIndex, type IndexRecord } from "./listing-index.ts";
import { parseSessionBytes } from "./parse-session-bytes.ts";
import { scanSession, type ScanResult } from "./scan-session.ts";
import type { SessionSummary } from "./types.ts";
import { workspaceDirs } from "./workspace-dir.ts";

const TAIL_BYTES = 32;

/** Where to look. */
export interface ListSessionsOptions {
  home: string;
  workdir: string;
}

/** This workspace's sessions, newest first (by the time of their last entry, then id). */
export function listSessions(options: ListSessionsOptions): SessionSummary[] {
  const byId = new Map<string, SessionSummary>();
  for (const dir of workspaceDirs(options.home, resolve(options.workdir))) {
    for (const summary of listDir(dir)) {
      const seen = byId.get(summary.id);
      if (!seen || seen.updatedAt < summary.updatedAt) byId.set(summary.id, summary);
    }
  }
  return [...byId.values()].sort(newestFirst);
}

function listDir(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl") && !n.startsWith("."));
  } catch {
    return [];
  }
  const index = readListingIndex(dir);
  const next = new Map<string, IndexRecord>();
  let changed = index.size !== names.length;
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (!stats.isFile()) continue;
    const known = index.get(name);
    let record =
      known && known.size === stats.size && known.mtimeMs === stats.mtimeMs && known.ino === stats.ino
        ? known
        : undefined;
    if (!record) {
      record = rescan(path, stats, known);
      changed = true;
    }
    next.set(name, record);
    if (record.state) summaries.push(toSummary(name.slice(0, -".jsonl".length), path, record, stats));
  }
  if (changed) writeListingIndex(dir, next);
  return summaries;
}

function rescan(path: string, stats: Stats, known: IndexRecord | undefined): IndexRecord {
  const base = { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
  let result: ScanResult | null = null;
  let bytes: Uint8Array = new Uint8Array();
  try {
    if (known?.state && known.ino === stats.ino && known.offset > 0 && stats.size > known.size) {
      // Sessions only grow: resume where the last scan stopped if the bytes before that point are unchanged.
      // Anything else (same size, smaller, another inode) is a rewrite and is scanned from the start.
      const tail = Buffer.from(known.tail, "base64");
      const grown = readRange(path, known.offset - tail.length, stats.size);
      if (Buffer.compare(grown.subarray(0, tail.length), tail) === 0) {
        bytes = grown;
        result = scanSession(grown.subarray(tail.length), structuredClone(known.state), known.offset);
        if (result) {
          settleBranch(path, result);
          return {
            ...base,
            offset: result.offset,
            tail: tailOf(grown, result.offset - known.offset + tail.length),
            state: result.state,
          };
        }
      }
    }
    bytes = readFileSync(path);
    result = scanSession(bytes, null);
    if (result) settleBranch(path, result, bytes);
  } catch {
    result = null;
  }
  if (!result) return { ...base, offset: 0, tail: "", state: null };
  return { ...base, offset: result.offset, tail: tailOf(bytes, result.offset), state: result.state };
}

/**
 * After the scan lost the active leaf (it moved to another branch): the
 * agent, model and thinking level of the branch it is on now, from the
 * whole tree. A file that cannot be loaded keeps the last switches written.
 */
function settleBranch(path: string, result: ScanResult, whole?: Uint8Array): void {
  const state = result.state;
  if (state.branchKnown || state.id === "") return;
  try {
    const { header, tree } = parseSessionBytes((whole ?? readFileSync(path)).subarray(0, result.offset), path);
    state.agent = tree.agent(header.agent);
    state.model = tree.model(header.model);
    state.thinking = tree.thinking() ?? null;
    state.leaf = tree.leafId;
    state.branchKnown = true;
  } catch {
    // Listed with its problem; what it runs with stays a guess.
  }
}

function tailOf(bytes: Uint8Array, end: number): string {
  return Buffer.from(bytes.subarray(Math.max(0, end - TAIL_BYTES), end)).toString("base64");
}

function readRange(path: string, start: number, end: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(end - start);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function toSummary(id: string, path: string, record: IndexRecord, stats: Stats): SessionSummary {
  const s = record.state!;
  return {
    id,
    path,
    workdir: s.workdir,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt || s.createdAt || stats.mtime.toISOString(),
    agent: s.agent ?? s.headerAgent,
    model: s.model ?? s.headerModel,
    ...thinkingField(s.thinking),
    title: s.title || s.firstPrompt || "",
    messageCount: s.messageCount,
    usage: { ...(s.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }) },
    cost: s.cost ?? null,
    problem: s.problem ?? null,
    // A session cannot be its own parent: a header naming itself (hand-edited, damaged) is a top session, listed as one.
    ...(s.parentSession !== undefined && s.parentSession !== id
      ? { parentSession: s.parentSession, ...(s.parentCallId !== undefined ? { parentCallId: s.parentCallId } : {}) }
      : {}),
  };
}

/** `{thinking}` when the level is one in force (not off). */
function thinkingField(level: string | null | undefined): { thinking?: string } {
  const thinking = thinkingLevelOf(level ?? undefined);
  return thinking === undefined ? {} : { thinking };
}

function newestFirst(a: SessionSummary, b: SessionSummary): number {
  const diff = (Date.parse(b.updatedAt) || 0) - (Date.parse(a.updatedAt) || 0);
  if (diff !== 0) return diff;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
