/**
 * Reads the bytes of a session file into a header, a tree and the facts an
 * appender needs: where the last whole entry ends and whether a torn tail
 * (a crash in the middle of a write) must be cut before the next append.
 *
 * Only the last line can be torn, because every entry is one write ending
 * in its `\n`: a last line without its `\n` that is not valid JSON is
 * ignored (and cut by the next append). Any other line that is not JSON,
 * a whole last line included (a hand edit: cutting it would lose data
 * without a word), is an error naming the file and the line.
 */
import { RiendaError } from "../errors.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../values.ts";
import { decodeEntry, decodeHeader } from "./decode-entry.ts";
import { headerProblem } from "./header-problem.ts";
import { SessionTree } from "./session-tree.ts";
import type { SessionEntry, SessionHeader } from "./types.ts";

const NEWLINE = 0x0a;

/**
 * How deep an entry's JSON may nest: the depth tool arguments may have
 * (MAX_JSON_DEPTH) plus the entry's own levels around them. A line deeper
 * than that was not written by Rienda, and reading it would overflow the
 * stack of whatever walks it (`sessions show`, an export).
 */
export const MAX_ENTRY_DEPTH = MAX_JSON_DEPTH + 16;

/** A session file as loaded, plus where the next append goes. */
export interface ParsedSession {
  header: SessionHeader;
  tree: SessionTree;
  /** Bytes of whole entries (and blank lines) from the start of the file. */
  validBytes: number;
  /** The file ends with bytes after `validBytes` that must be cut before appending. */
  torn: boolean;
  /** The last whole entry has no `\n` (a hand-written file): the next append starts with one. */
  needsNewline: boolean;
  /** Every entry this version reads, in file order (shared with the tree: do not mutate). */
  entries: SessionEntry[];
  /** Lines (1-based) after the first that hold a header too (ignored by loading; refused by import). */
  extraHeaders?: number[];
}

/** Parses a whole session file. */
export function parseSessionBytes(bytes: Uint8Array, path: string): ParsedSession {
  const decoder = new TextDecoder();
  const spans = lineSpans(bytes);
  const first = spans[0];
  const firstText = first ? decoder.decode(bytes.subarray(first.start, first.end)) : undefined;
  const headerValue = firstText === undefined ? INVALID : parseJson(firstText);
  const wrong = headerProblem(
    { text: firstText, terminated: first?.terminated ?? false, more: spans.length > 1 },
    headerValue,
    INVALID,
  );
  if (wrong || first === undefined)
    throw new RiendaError("session", `session file ${path}: ${wrong?.problem ?? "it is empty"}`);
  const header = decodeHeader(headerValue, path);
  const tree = new SessionTree();
  const entries: SessionEntry[] = [];
  const extraHeaders: number[] = [];
  let validBytes = first.terminated ? first.end + 1 : first.end;
  let needsNewline = !first.terminated;
  let lastContent = spans.length - 1;
  while (lastContent > 0 && isBlank(bytes, spans[lastContent]!)) lastContent--;
  for (let i = 1; i < spans.length; i++) {
    const span = spans[i]!;
    if (isBlank(bytes, span)) {
      if (span.terminated) validBytes = span.end + 1;
      continue;
    }
    const line = decoder.decode(bytes.subarray(span.start, span.end));
    const tooDeep = jsonDepthProblem(line, MAX_ENTRY_DEPTH);
    if (tooDeep) throw new RiendaError("session", `session file ${path}, line ${i + 1}: ${tooDeep}`);
    const value = parseJson(line);
    if (value === INVALID) {
      if (i === lastContent && !span.terminated) break;
      const whole =
        i === lastContent
          ? " (a whole line, ended by a newline, so not one a crash cut short: Rienda leaves the file as it is; mend or delete the line)"
          : "";
      throw new RiendaError("session", `session file ${path}, line ${i + 1}: not valid JSON${whole}`);
    }
    if (isHeaderLike(value)) extraHeaders.push(i + 1);
    const entry = decodeEntry(value, { path, line: i + 1 });
    if (entry) tree.add(entry, `session file ${path}, line ${i + 1}`);
    if (entry && entry.kind !== "pass-through") entries.push(entry);
    validBytes = span.terminated ? span.end + 1 : span.end;
    needsNewline = !span.terminated;
  }
  return { header, tree, validBytes, torn: validBytes < bytes.length, needsNewline, entries, extraHeaders };
}

function isHeaderLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "header";
}

/** A line of the file as byte offsets; `end` excludes the `\n`. */
export interface LineSpan {
  start: number;
  end: number;
  terminated: boolean;
}

/** Splits bytes into lines without decoding them. */
export function lineSpans(bytes: Uint8Array, from = 0): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = from;
  while (start < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, start);
    if (nl === -1) {
      spans.push({ start, end: bytes.length, terminated: false });
      break;
    }
    spans.push({ start, end: nl, terminated: true });
    start = nl + 1;
  }
  return spans;
}

/** Marks a line that is not JSON. */
export const INVALID: unique symbol = Symbol("invalid");

/** JSON.parse that returns INVALID instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return INVALID;
  }
}

/** Whether a line holds only spaces, tabs or a CR. */
export function isBlank(bytes: Uint8Array, span: LineSpan): boolean {
  for (let i = span.start; i < span.end; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}
