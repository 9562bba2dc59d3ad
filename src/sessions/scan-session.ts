/**
 * What a listing needs from one session file, read without decoding it
 * whole: lines are told apart by their first bytes (of a message or a
 * compaction only the `id` and `parentId` at its start are read, and the
 * response fields at its end), and only the header, the lines that name the
 * session (first user prompt, `title`, switches, `leaf`) and the last line
 * are parsed. Lines in another key order (hand-written) are parsed in full.
 *
 * The agent, model and thinking level are those of the active branch: the
 * scan follows the leaf as entries are appended after it; when the leaf
 * jumps (a `leaf` entry, an entry opening a branch) it cannot tell which
 * switches apply without the whole tree, marks `branchKnown` false, and the
 * listing loads the file once to settle them (list-sessions.ts).
 *
 * The scan can resume at the end of an earlier one, because the file only
 * grows by whole lines after it: that is what keeps the listing index cheap.
 */
import { decodeBlocks, decodeEntry } from "./decode-entry.ts";
import { headerProblem } from "./header-problem.ts";
import { firstString, isRecord, str } from "./json-fields.ts";
import { INVALID, isBlank, lineSpans, MAX_ENTRY_DEPTH, parseJson, type LineSpan } from "./parse-session-bytes.ts";
import { jsonDepthProblem, roundDollars } from "../values.ts";
import { normalizeTitle, titleFromBlocks } from "./session-title.ts";

/** The summary of a session so far; plain JSON so the index can store it. */
export interface ScanState {
  id: string;
  createdAt: string;
  workdir: string;
  headerAgent: string;
  headerModel: string;
  messageCount: number;
  /** Title from the first user prompt, once seen. */
  firstPrompt: string | null;
  /** The last `title` entry ("" clears it), once seen. */
  title: string | null;
  /** The agent / model / thinking level in effect at `leaf` (null: the header's, or thinking off); while `branchKnown` is false, the last switch written. */
  agent: string | null;
  model: string | null;
  thinking: string | null;
  /** The active leaf as the scan followed it. */
  leaf: string | null;
  /** False once the leaf jumped somewhere the scan cannot follow (a branch): `agent`, `model` and `thinking` are then settled from the whole tree. */
  branchKnown: boolean;
  /** createdAt of the last entry that had one. */
  updatedAt: string | null;
  /** Token totals of every answer in the file (every branch), from their `responseUsage`. */
  usage: UsageTotals;
  /** Dollars of the answers that carry a `responseCost`; null when none does. */
  cost: number | null;
  /** Lines up to the scan's offset, for the line numbers of problems. */
  lines: number;
  /**
   * Why loading the file would fail, as far as a scan can tell without
   * decoding every entry (a header this version does not read, a line that
   * is not JSON before the last one); null when it saw nothing wrong.
   */
  problem: string | null;
  /** A subagent's session: the header's parentSession and parentCallId (absent in older index records). */
  parentSession?: string;
  parentCallId?: string;
}

/** Token sums of a session's answers. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** Where a scan stopped: `offset` is the end of the last whole entry, where the next scan resumes. */
export interface ScanResult {
  state: ScanState;
  offset: number;
}

const encoder = new TextEncoder();
const MESSAGE = encoder.encode('{"kind":"message",');
const COMPACTION = encoder.encode('{"kind":"compaction",');
const CANONICAL = encoder.encode('{"kind":"');
const NAMING = ["title", "agent", "model", "thinking", "leaf"].map((k) => encoder.encode(`{"kind":"${k}",`));
const ID_KEY = encoder.encode('"id":"');
const PARENT_KEY = encoder.encode(',"parentId":');
const NULL = encoder.encode("null");
// Our writer puts the response fields last, after the blocks: their tail is all a listing decodes.
const RESPONSE_TAIL_BYTES = 400;

/**
 * Scans `bytes` (the file from byte `base` on) starting from `prior`, or
 * from the header when there is no prior state. Returns null when the file
 * was cut off while being created (empty, or a partial first line); a file
 * with any other header problem gets a state carrying the problem.
 */
export function scanSession(bytes: Uint8Array, prior: ScanState | null, base = 0): ScanResult | null {
  const decoder = new TextDecoder();
  const text = (span: LineSpan) => decoder.decode(bytes.subarray(span.start, span.end));
  const spans = lineSpans(bytes);
  let index = 0;
  let state = prior;
  let offset = 0;
  const startLines = state?.lines ?? 0;
  if (state === null) {
    const first = spans[0];
    const firstText = first ? text(first) : undefined;
    const header = firstText === undefined ? INVALID : parseJson(firstText);
    const wrong = headerProblem(
      { text: firstText, terminated: first?.terminated ?? false, more: spans.length > 1 },
      header,
      INVALID,
    );
    if (wrong?.cutOff) return null;
    // A header that does not name a session leaves nothing to read further: marked, and rescanned from the start when it changes.
    if (!isRecord(header) || typeof header.id !== "string")
      return { state: { ...EMPTY_STATE, problem: wrong?.problem ?? "line 1 is not a session header" }, offset: 0 };
    state = headerState(header as Record<string, unknown> & { id: string }, wrong?.problem ?? null);
    offset = first!.terminated ? first!.end + 1 : first!.end;
    index = 1;
  }
  let lastContent = spans.length - 1;
  while (lastContent >= index && isBlank(bytes, spans[lastContent]!)) lastContent--;
  let lastAccepted = -1;
  for (let i = index; i <= lastContent; i++) {
    const span = spans[i]!;
    if (isBlank(bytes, span)) continue;
    if (i < lastContent && span.terminated && startsWith(bytes, span.start, CANONICAL)) {
      // Not decoded, but a line that does not end its object is surely not JSON.
      if (state.problem === null && !endsObject(bytes, span))
        state.problem = `line ${startLines + i + 1} is not valid JSON`;
      if (startsWith(bytes, span.start, MESSAGE)) {
        state.messageCount++;
        const value = state.firstPrompt === null ? parseJson(text(span)) : undefined;
        if (value !== undefined) firstPrompt(state, value);
        follow(state, quickLink(bytes, span, MESSAGE.length, decoder) ?? linkOf(value ?? parseJson(text(span))));
        addResponse(
          state,
          responseTail(decoder.decode(bytes.subarray(Math.max(span.start, span.end - RESPONSE_TAIL_BYTES), span.end))),
        );
      } else if (startsWith(bytes, span.start, COMPACTION)) {
        follow(state, quickLink(bytes, span, COMPACTION.length, decoder) ?? linkOf(parseJson(text(span))));
      } else if (NAMING.some((p) => startsWith(bytes, span.start, p))) {
        apply(state, parseJson(text(span)));
      }
      offset = span.end + 1;
      lastAccepted = i;
      continue;
    }
    const line = text(span);
    const tooDeep = jsonDepthProblem(line, MAX_ENTRY_DEPTH);
    if (tooDeep) {
      if (state.problem === null) state.problem = `line ${startLines + i + 1}: ${tooDeep}`;
      offset = span.terminated ? span.end + 1 : span.end;
      lastAccepted = i;
      continue;
    }
    const value = parseJson(line);
    // Only the last line can be torn (a crash mid-write, or a write still going on): it lacks its `\n`; ignored, and the next scan reads it again.
    if (value === INVALID && i === lastContent && !span.terminated) break;
    if (value === INVALID && state.problem === null) state.problem = `line ${startLines + i + 1} is not valid JSON`;
    apply(state, value);
    if (isRecord(value) && value.kind === "message") {
      state.messageCount++;
      addResponse(state, value);
    }
    offset = span.terminated ? span.end + 1 : span.end;
    lastAccepted = i;
  }
  if (lastAccepted >= 0) state.lines = startLines + lastAccepted + 1;
  // The update time is that of the last whole entry carrying one (a few lines back at most).
  for (let i = lastAccepted; i >= index && i > lastAccepted - 64; i--) {
    const value = isBlank(bytes, spans[i]!) ? undefined : parseJson(text(spans[i]!));
    if (isRecord(value) && typeof value.createdAt === "string" && value.createdAt !== "") {
      state.updatedAt = value.createdAt;
      break;
    }
  }
  return { state, offset: base + offset };
}

/** The state after a header naming a session: its facts, and the problem found with it (null: none). */
function headerState(header: Record<string, unknown> & { id: string }, problem: string | null): ScanState {
  return {
    ...EMPTY_STATE,
    id: header.id,
    createdAt: str(header.createdAt),
    workdir: str(header.workdir),
    headerAgent: str(header.agent),
    headerModel: str(header.model),
    // Its own: the totals are added to in place.
    usage: emptyUsage(),
    lines: 1,
    problem,
    ...(typeof header.parentSession === "string" && header.parentSession !== ""
      ? { parentSession: header.parentSession }
      : {}),
    ...(typeof header.parentCallId === "string" && header.parentCallId !== ""
      ? { parentCallId: header.parentCallId }
      : {}),
  };
}

function apply(state: ScanState, value: unknown): void {
  if (!isRecord(value)) return;
  switch (value.kind) {
    case "message":
      if (state.firstPrompt === null) firstPrompt(state, value);
      follow(state, linkOf(value));
      return;
    case "compaction":
      follow(state, linkOf(value));
      return;
    case "leaf": {
      const target = firstString(value.targetId) ?? null;
      if (target !== state.leaf) state.branchKnown = false;
      state.leaf = target;
      return;
    }
    case "title":
      state.title = normalizeTitle(str(value.title));
      return;
    case "agent":
    case "model":
    case "thinking":
      switched(state, value);
      return;
  }
}

/** A switch: on the chain it is followed like a message; beside it, it applies where the leaf is. */
function switched(state: ScanState, value: Record<string, unknown>): void {
  const entry = decodeEntry(value, { path: "", line: 0 });
  if (entry === null || (entry.kind !== "agent" && entry.kind !== "model" && entry.kind !== "thinking")) return;
  if (entry.kind === "thinking" || !entry.beside) follow(state, entry);
  else if (entry.parentId !== state.leaf) state.branchKnown = false;
  if (entry.kind === "agent") state.agent = entry.agentId;
  else if (entry.kind === "model") state.model = entry.modelRef;
  else state.thinking = entry.thinkingLevel;
}

/** A node appended to the tree becomes the leaf; one that does not hang from the leaf opens a branch the scan cannot follow. */
function follow(state: ScanState, link: Link | undefined): void {
  if (link === undefined) return;
  if (link.parentId !== state.leaf) state.branchKnown = false;
  state.leaf = link.id;
}

/** Where an entry sits in the tree. */
interface Link {
  id: string;
  parentId: string | null;
}

function linkOf(value: unknown): Link | undefined {
  if (!isRecord(value) || typeof value.id !== "string" || value.id === "") return undefined;
  return { id: value.id, parentId: firstString(value.parentId) ?? null };
}

/**
 * `id` and `parentId` read off the start of a line laid out as our writer
 * and Go's lay it out (`{"kind":"…","id":"…","parentId":…`), without
 * decoding the rest; undefined for any other layout (Go's first message,
 * which has no `parentId`, an escaped character), which is then parsed.
 */
function quickLink(bytes: Uint8Array, span: LineSpan, kindLength: number, decoder: TextDecoder): Link | undefined {
  let at = span.start + kindLength;
  if (!startsWith(bytes, at, ID_KEY)) return undefined;
  at += ID_KEY.length;
  const idEnd = stringEnd(bytes, at, span.end);
  if (idEnd <= at) return undefined;
  const id = decoder.decode(bytes.subarray(at, idEnd));
  at = idEnd + 1;
  if (!startsWith(bytes, at, PARENT_KEY)) return undefined;
  at += PARENT_KEY.length;
  if (startsWith(bytes, at, NULL)) return { id, parentId: null };
  if (bytes[at] !== QUOTE) return undefined;
  const parentEnd = stringEnd(bytes, at + 1, span.end);
  if (parentEnd < 0) return undefined;
  return { id, parentId: parentEnd === at + 1 ? null : decoder.decode(bytes.subarray(at + 1, parentEnd)) };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Offset of the quote closing a JSON string that starts at `from`; -1 when it has an escape or does not close. */
function stringEnd(bytes: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    if (bytes[i] === QUOTE) return i;
    if (bytes[i] === BACKSLASH) return -1;
  }
  return -1;
}

function firstPrompt(state: ScanState, value: unknown): void {
  if (!isRecord(value) || value.role !== "user" || !Array.isArray(value.blocks)) return;
  state.firstPrompt = titleFromBlocks(decodeBlocks(value.blocks)) ?? null;
}

/**
 * The `responseUsage` and `responseCost` at the end of a message line,
 * found without decoding its blocks. Quotes inside stored strings are
 * escaped, so the unescaped key can only be the field itself.
 */
function responseTail(tail: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const usageAt = tail.lastIndexOf('"responseUsage":{');
  if (usageAt >= 0) {
    const start = usageAt + '"responseUsage":'.length;
    const end = tail.indexOf("}", start);
    if (end > start) out.responseUsage = parseJson(tail.slice(start, end + 1));
  }
  const cost = /"responseCost":([0-9.eE+-]+)/.exec(tail);
  if (cost) out.responseCost = Number(cost[1]);
  return out;
}

function addResponse(state: ScanState, value: unknown): void {
  if (!isRecord(value)) return;
  const usage = value.responseUsage;
  if (isRecord(usage)) {
    state.usage.inputTokens += count(usage.inputTokens);
    state.usage.outputTokens += count(usage.outputTokens);
    state.usage.cacheReadTokens += count(usage.cacheReadTokens);
    state.usage.cacheWriteTokens += count(usage.cacheWriteTokens);
  }
  const cost = value.responseCost;
  if (typeof cost === "number" && Number.isFinite(cost) && cost >= 0)
    state.cost = roundDollars((state.cost ?? 0) + cost);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function emptyUsage(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

const EMPTY_STATE: ScanState = {
  id: "",
  createdAt: "",
  workdir: "",
  headerAgent: "",
  headerModel: "",
  messageCount: 0,
  firstPrompt: null,
  title: null,
  agent: null,
  model: null,
  thinking: null,
  leaf: null,
  branchKnown: true,
  updatedAt: null,
  usage: emptyUsage(),
  cost: null,
  lines: 0,
  problem: null,
};

/** Whether the line's last byte other than blanks is `}`. */
function endsObject(bytes: Uint8Array, span: LineSpan): boolean {
  let i = span.end - 1;
  while (i >= span.start && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d)) i--;
  return i >= span.start && bytes[i] === 0x7d;
}

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}
