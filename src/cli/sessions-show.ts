/**
 * `rienda sessions show ID`: a session read without opening it (no lock, no
 * write), as a transcript of its active branch (plain text for people,
 * `--markdown` for a pull request comment), its entries (`--json`), or its
 * tree of branches (`--tree`). Tool results and arguments are capped and the
 * cut is marked; thinking only with `--thinking`; each answer with its model,
 * usage and cost, and the totals at the end.
 */
import type { AnswerCut, Block } from "../providers/index.ts";
import type { BranchEntry, InterruptionReason, SessionEntry, StoredSession } from "../sessions/index.ts";
import { costCell } from "./cost-cell.ts";

/** How to show it. */
export interface ShowOptions {
  thinking: boolean;
}

/** Characters of a tool result or arguments shown before the cut. */
const RESULT_CHARS = 2000;
/** Lines of a tool result shown before the cut. */
const RESULT_LINES = 20;

/** One entry of the transcript: what the branch shows, in order. */
type Shown =
  | { kind: "message"; entry: Extract<SessionEntry, { kind: "message" }> }
  | { kind: "compaction"; entry: Extract<SessionEntry, { kind: "compaction" }> }
  | { kind: "note"; text: string };

/** The active branch with its switches and the interruptions that hang from it, in file order. */
function branchItems(stored: StoredSession): Shown[] {
  const onBranch = new Set(stored.tree.branch().map((e) => e.id));
  const switches = new Set<SessionEntry>(stored.tree.switches());
  const items: Shown[] = [];
  for (const e of stored.entries) {
    if ((e.kind === "message" || e.kind === "compaction") && onBranch.has(e.id)) items.push(e.kind === "message" ? { kind: "message", entry: e } : { kind: "compaction", entry: e });
    else if (switches.has(e)) items.push({ kind: "note", text: switchNote(e) });
    else if (e.kind === "interruption" && e.parentId !== null && onBranch.has(e.parentId)) items.push({ kind: "note", text: interruptionNote(e.reason) });
  }
  return items;
}

/** The note where a run stopped before its answer was whole. */
function interruptionNote(reason: InterruptionReason | undefined): string {
  return reason === "error" ? "the run failed here" : reason === "limit" ? "a limit stopped the run here" : "interrupted here";
}

/** `model switched to p/m`, `thinking set to high`. */
function switchNote(entry: SessionEntry): string {
  if (entry.kind === "agent") return `agent switched to ${entry.agentId}`;
  if (entry.kind === "model") return `model switched to ${entry.modelRef}`;
  return entry.kind === "thinking" ? `thinking set to ${entry.thinkingLevel || "off"}` : entry.kind;
}

/** Totals of the branch's answers. */
function totals(items: Shown[]): { answers: number; input: number; output: number; cost: number | null } {
  const sum = { answers: 0, input: 0, output: 0, cost: null as number | null };
  for (const item of items) {
    if (item.kind !== "message" || item.entry.role !== "assistant") continue;
    sum.answers++;
    sum.input += item.entry.responseUsage?.inputTokens ?? 0;
    sum.output += item.entry.responseUsage?.outputTokens ?? 0;
    if (item.entry.responseCost !== undefined) sum.cost = (sum.cost ?? 0) + item.entry.responseCost;
  }
  return sum;
}

/** `wire-model · 812 in, 44 out · $0.0012`, the parts known. */
function answerFacts(entry: Extract<SessionEntry, { kind: "message" }>): string {
  const parts: string[] = [];
  if (entry.responseModel) parts.push(entry.responseModel);
  if (entry.responseUsage) parts.push(`${entry.responseUsage.inputTokens} in, ${entry.responseUsage.outputTokens} out`);
  if (entry.responseCost !== undefined) parts.push(costCell(entry.responseCost));
  if (entry.responseStopReason && entry.responseStopReason !== "end_turn" && entry.responseStopReason !== "tool_use") parts.push(`stopped: ${entry.responseStopReason}`);
  if (entry.interrupted) parts.push(cutText(entry.interrupted));
  return parts.join(" · ");
}

/** How a partial answer is marked in transcripts and the tree. */
function cutText(cut: AnswerCut): string {
  return cut === "limit" ? "cut short by a limit" : "interrupted";
}

/** `text` cut at RESULT_LINES lines or RESULT_CHARS characters, the cut marked with what was left out. */
export function capped(text: string): string {
  const lines = text.split("\n");
  let shown = lines.length > RESULT_LINES ? lines.slice(0, RESULT_LINES).join("\n") : text;
  if (shown.length > RESULT_CHARS) shown = shown.slice(0, RESULT_CHARS);
  if (shown.length === text.length) return text;
  const hiddenLines = lines.length - shown.split("\n").length;
  return `${shown}\n[… ${text.length - shown.length} more characters${hiddenLines > 0 ? ` (${hiddenLines} more lines)` : ""} not shown]`;
}

function argumentsText(args: unknown): string {
  return capped(typeof args === "string" ? args : JSON.stringify(args));
}

function attachmentText(block: Extract<Block, { type: "attachment" }>): string {
  const size = block.text !== undefined ? `${block.text.length} characters` : `${Math.floor(((block.data?.length ?? 0) * 3) / 4)} bytes`;
  return `[attachment ${block.name} (${block.mediaType}, ${size})]`;
}

function toolNames(stored: StoredSession): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of stored.entries) if (e.kind === "message") for (const b of e.blocks) if (b.type === "tool_call") names.set(b.toolCallId, b.toolCallName);
  return names;
}

function headerLines(stored: StoredSession): string[] {
  const h = stored.header;
  const lines = [`session ${h.id} · agent ${stored.tree.agent(h.agent)} · model ${stored.tree.model(h.model)} · ${h.workdir}`];
  if (stored.tree.title) lines.push(`title: ${stored.tree.title}`);
  if (h.forkedFrom) lines.push(`forked from ${h.forkedFrom}${h.forkedAt ? ` at ${h.forkedAt}` : " before its first message"}`);
  if (h.parentSession) lines.push(`subagent of ${h.parentSession} (call ${h.parentCallId ?? "?"})`);
  return lines;
}

function totalLine(items: Shown[]): string {
  const t = totals(items);
  return `total: ${t.answers} ${t.answers === 1 ? "answer" : "answers"}, ${t.input} tokens in, ${t.output} out${t.cost !== null ? `, ${costCell(t.cost)}` : ""}`;
}

/** The plain transcript of the active branch. */
export function plainTranscript(stored: StoredSession, options: ShowOptions): string {
  const names = toolNames(stored);
  const out: string[] = [...headerLines(stored)];
  const items = branchItems(stored);
  for (const item of items) {
    out.push("");
    if (item.kind === "note") {
      out.push(`[${item.text}]`);
      continue;
    }
    if (item.kind === "compaction") {
      out.push(`[earlier messages compacted into a summary (${item.entry.id})]`, capped(item.entry.summary));
      continue;
    }
    const e = item.entry;
    const results = e.role === "user" && e.blocks.every((b) => b.type === "tool_result");
    if (!results) out.push(`── ${e.role} ${e.id}${e.role === "assistant" && answerFacts(e) ? ` · ${answerFacts(e)}` : ""}`);
    for (const b of e.blocks) {
      if (b.type === "text") out.push(b.text);
      else if (b.type === "thinking") {
        if (options.thinking && b.thinking) out.push(`thinking: ${b.thinking}`);
      } else if (b.type === "tool_call") out.push(`→ ${b.toolCallName} ${argumentsText(b.toolCallArguments)}`);
      else if (b.type === "tool_result") {
        const name = names.get(b.toolResultCallId) ?? b.toolResultCallId;
        out.push(`← ${name}${b.toolResultIsError ? " (error)" : ""}:`, capped(b.toolResult.map((t) => t.text).join("")));
      } else out.push(attachmentText(b));
    }
  }
  out.push("", totalLine(items));
  return `${out.join("\n")}\n`;
}

/** A fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

function fenced(text: string): string {
  const f = fence(text);
  return `${f}\n${text}\n${f}`;
}

/** The transcript as Markdown, for a pull request comment. */
export function markdownTranscript(stored: StoredSession, options: ShowOptions): string {
  const names = toolNames(stored);
  const items = branchItems(stored);
  const out: string[] = [`### Session \`${stored.header.id}\``, "", headerLines(stored).slice(1).concat([`agent \`${stored.tree.agent(stored.header.agent)}\`, model \`${stored.tree.model(stored.header.model)}\``]).join("  \n")];
  for (const item of items) {
    out.push("");
    if (item.kind === "note") {
      out.push(`_${item.text}_`);
      continue;
    }
    if (item.kind === "compaction") {
      out.push("<details><summary>earlier messages, compacted</summary>", "", fenced(capped(item.entry.summary)), "", "</details>");
      continue;
    }
    const e = item.entry;
    const results = e.role === "user" && e.blocks.every((b) => b.type === "tool_result");
    if (!results) out.push(`**${e.role}**${e.role === "assistant" && answerFacts(e) ? ` · _${answerFacts(e)}_` : ""}`, "");
    for (const b of e.blocks) {
      if (b.type === "text") out.push(b.text, "");
      else if (b.type === "thinking") {
        if (options.thinking && b.thinking) out.push("<details><summary>thinking</summary>", "", b.thinking, "", "</details>", "");
      } else if (b.type === "tool_call") out.push(`tool call \`${b.toolCallName}\``, "", fenced(argumentsText(b.toolCallArguments)), "");
      else if (b.type === "tool_result") {
        const name = names.get(b.toolResultCallId) ?? b.toolResultCallId;
        out.push(`<details><summary>result of ${name}${b.toolResultIsError ? " (error)" : ""}</summary>`, "", fenced(capped(b.toolResult.map((t) => t.text).join(""))), "", "</details>", "");
      } else out.push(`_${attachmentText(b)}_`, "");
    }
    while (out.at(-1) === "") out.pop();
  }
  out.push("", `_${totalLine(items)}_`);
  return `${out.join("\n")}\n`;
}

/** `--json`: the header, the active leaf and branch, and every entry in file order. */
export function jsonOfSession(stored: StoredSession): Record<string, unknown> {
  return { header: stored.header, leafId: stored.tree.leafId, branch: stored.tree.branch().map((e) => e.id), path: stored.path, entries: stored.entries };
}

/** One line of the tree for an entry: role and the first words. */
function label(entry: BranchEntry): string {
  if (entry.kind === "compaction") return "compaction";
  const calls = entry.blocks.filter((b) => b.type === "tool_call").map((b) => (b.type === "tool_call" ? b.toolCallName : ""));
  if (entry.role === "user" && entry.blocks.some((b) => b.type === "tool_result")) return "tool results";
  const text = entry.blocks.map((b) => (b.type === "text" ? b.text : "")).join(" ").replace(/\s+/g, " ").trim();
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  const cut = entry.interrupted ? ` (${cutText(entry.interrupted)})` : "";
  return `${entry.role}${short ? `: ${short}` : ""}${calls.length > 0 ? ` → ${calls.join(", ")}` : ""}${cut}`;
}

/** One drawn line of the tree. */
export interface TreeLine {
  id: string;
  text: string;
  active: boolean;
}

/**
 * Every message of every branch, a chain of single children on one level
 * and each branch point's children drawn under it; `*` marks the active
 * branch and `(leaf)` its end. Linear in the file, whatever its shape (a
 * crafted file is not trusted, issue 39): no recursion (15,000 nested branch
 * points overflowed the stack), children gathered in place (50,000 roots
 * copied an array per child), and at most MAX_DRAWN_LEVELS levels of
 * indentation, deeper ones drawn at that width behind `[+N]` (N levels left
 * out), so the output grows with the lines, not with their depth.
 */
export function treeLines(stored: Pick<StoredSession, "entries" | "tree">): TreeLine[] {
  const nodes = stored.entries.filter((e): e is BranchEntry => e.kind === "message" || e.kind === "compaction");
  const children = new Map<string | null, BranchEntry[]>();
  for (const n of nodes) {
    // Switches on the chain are not drawn: a message after one is drawn under the message before it.
    const parent = stored.tree.shownParent(n.id);
    const kids = children.get(parent);
    if (kids) kids.push(n);
    else children.set(parent, [n]);
  }
  const branch = stored.tree.branch();
  const active = new Set(branch.map((e) => e.id));
  // The active leaf may be a switch: its end is then the last message before it.
  const leaf = branch.at(-1)?.id;
  const out: TreeLine[] = [];
  const line = (prefix: string, n: BranchEntry) =>
    out.push({ id: n.id, active: active.has(n.id), text: `${prefix}${active.has(n.id) ? "*" : " "} ${n.id}  ${label(n)}${n.id === leaf ? "  (leaf)" : ""}` });
  const roots = children.get(null) ?? [];
  const single = roots.length === 1;
  // Each branch to draw: its first node, the indentation above it, and its own connector and bar.
  const pending: Array<{ node: BranchEntry; above: Bars | undefined; connector: string; bar: string }> = roots
    .map((node, i) => {
      const last = i === roots.length - 1;
      return { node, above: undefined, connector: single ? "" : last ? "└─ " : "├─ ", bar: single ? "" : last ? "   " : "│  " };
    })
    .reverse();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const rest: Bars | undefined = next.bar === "" ? next.above : { bar: next.bar, up: next.above, depth: (next.above?.depth ?? 0) + 1 };
    let node: BranchEntry | undefined = next.node;
    line(barsText(next.above) + next.connector, node);
    const restText = barsText(rest);
    for (;;) {
      const kids: BranchEntry[] = children.get(node.id) ?? [];
      if (kids.length !== 1) {
        for (let i = kids.length - 1; i >= 0; i--) {
          const last = i === kids.length - 1;
          pending.push({ node: kids[i]!, above: rest, connector: last ? "└─ " : "├─ ", bar: last ? "   " : "│  " });
        }
        break;
      }
      node = kids[0]!;
      line(restText, node);
    }
  }
  return out;
}

/** The most levels of indentation drawn (three columns each). */
const MAX_DRAWN_LEVELS = 20;

/** The indentation of a branch: its bar, then its parent's, up to the root (a shared chain, never copied). */
interface Bars {
  bar: string;
  up: Bars | undefined;
  depth: number;
}

/** The indentation as drawn: the innermost MAX_DRAWN_LEVELS bars, behind `[+N] ` when N more are left out. */
function barsText(bars: Bars | undefined): string {
  const shown: string[] = [];
  let at = bars;
  for (; at && shown.length < MAX_DRAWN_LEVELS; at = at.up) shown.push(at.bar);
  const text = shown.reverse().join("");
  return at ? `[+${at.depth}] ${text}` : text;
}

/** `--tree`: the header lines, then the tree. */
export function treeOfSession(stored: StoredSession): string {
  const lines = treeLines(stored);
  const out: string[] = [...headerLines(stored), "", ...lines.map((l) => l.text)];
  if (lines.length === 0) out.push("(no messages)");
  else if (stored.tree.branch().length === 0) out.push("(the active leaf is before the first message)");
  return `${out.join("\n")}\n`;
}
