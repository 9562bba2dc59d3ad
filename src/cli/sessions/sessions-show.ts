/**
 * `rienda sessions show ID`: a session read without opening it (no lock, no
 * write), as a transcript of its active branch (plain text for people,
 * `--markdown` for a pull request comment), its entries (`--json`), or its
 * tree of branches (`--tree`). Tool results and arguments are capped and the
 * cut is marked; thinking only with `--thinking`; each answer with its model,
 * usage and cost, and the totals at the end.
 */
import type { Block } from "../../providers/index.ts";
import { cutText, treeLines } from "../../conversation/index.ts";
import type { InterruptionReason, SessionEntry, StoredSession } from "../../sessions/index.ts";
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
    if ((e.kind === "message" || e.kind === "compaction") && onBranch.has(e.id))
      items.push(e.kind === "message" ? { kind: "message", entry: e } : { kind: "compaction", entry: e });
    else if (switches.has(e)) items.push({ kind: "note", text: switchNote(e) });
    else if (e.kind === "interruption" && e.parentId !== null && onBranch.has(e.parentId))
      items.push({ kind: "note", text: interruptionNote(e.reason) });
  }
  return items;
}

/** The note where a run stopped before its answer was whole. */
function interruptionNote(reason: InterruptionReason | undefined): string {
  return reason === "error"
    ? "the run failed here"
    : reason === "limit"
      ? "a limit stopped the run here"
      : "interrupted here";
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
  if (entry.responseStopReason && entry.responseStopReason !== "end_turn" && entry.responseStopReason !== "tool_use")
    parts.push(`stopped: ${entry.responseStopReason}`);
  if (entry.interrupted) parts.push(cutText(entry.interrupted));
  return parts.join(" · ");
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
  const size =
    block.text !== undefined
      ? `${block.text.length} characters`
      : `${Math.floor(((block.data?.length ?? 0) * 3) / 4)} bytes`;
  return `[attachment ${block.name} (${block.mediaType}, ${size})]`;
}

function toolNames(stored: StoredSession): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of stored.entries)
    if (e.kind === "message")
      for (const b of e.blocks) if (b.type === "tool_call") names.set(b.toolCallId, b.toolCallName);
  return names;
}

function headerLines(stored: StoredSession): string[] {
  const h = stored.header;
  const lines = [
    `session ${h.id} · agent ${stored.tree.agent(h.agent)} · model ${stored.tree.model(h.model)} · ${h.workdir}`,
  ];
  if (stored.tree.title) lines.push(`title: ${stored.tree.title}`);
  if (h.forkedFrom)
    lines.push(`forked from ${h.forkedFrom}${h.forkedAt ? ` at ${h.forkedAt}` : " before its first message"}`);
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
    if (!results)
      out.push(`── ${e.role} ${e.id}${e.role === "assistant" && answerFacts(e) ? ` · ${answerFacts(e)}` : ""}`);
    for (const b of e.blocks) {
      if (b.type === "text") out.push(b.text);
      else if (b.type === "thinking") {
        if (options.thinking && b.thinking) out.push(`thinking: ${b.thinking}`);
      } else if (b.type === "tool_call") out.push(`→ ${b.toolCallName} ${argumentsText(b.toolCallArguments)}`);
      else if (b.type === "tool_result") {
        const name = names.get(b.toolResultCallId) ?? b.toolResultCallId;
        out.push(
          `← ${name}${b.toolResultIsError ? " (error)" : ""}:`,
          capped(b.toolResult.map((t) => t.text).join("")),
        );
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
  const out: string[] = [
    `### Session \`${stored.header.id}\``,
    "",
    headerLines(stored)
      .slice(1)
      .concat([
        `agent \`${stored.tree.agent(stored.header.agent)}\`, model \`${stored.tree.model(stored.header.model)}\``,
      ])
      .join("  \n"),
  ];
  for (const item of items) {
    out.push("");
    if (item.kind === "note") {
      out.push(`_${item.text}_`);
      continue;
    }
    if (item.kind === "compaction") {
      out.push(
        "<details><summary>earlier messages, compacted</summary>",
        "",
        fenced(capped(item.entry.summary)),
        "",
        "</details>",
      );
      continue;
    }
    const e = item.entry;
    const results = e.role === "user" && e.blocks.every((b) => b.type === "tool_result");
    if (!results)
      out.push(`**${e.role}**${e.role === "assistant" && answerFacts(e) ? ` · _${answerFacts(e)}_` : ""}`, "");
    for (const b of e.blocks) {
      if (b.type === "text") out.push(b.text, "");
      else if (b.type === "thinking") {
        if (options.thinking && b.thinking)
          out.push("<details><summary>thinking</summary>", "", b.thinking, "", "</details>", "");
      } else if (b.type === "tool_call")
        out.push(`tool call \`${b.toolCallName}\``, "", fenced(argumentsText(b.toolCallArguments)), "");
      else if (b.type === "tool_result") {
        const name = names.get(b.toolResultCallId) ?? b.toolResultCallId;
        out.push(
          `<details><summary>result of ${name}${b.toolResultIsError ? " (error)" : ""}</summary>`,
          "",
          fenced(capped(b.toolResult.map((t) => t.text).join(""))),
          "",
          "</details>",
          "",
        );
      } else out.push(`_${attachmentText(b)}_`, "");
    }
    while (out.at(-1) === "") out.pop();
  }
  out.push("", `_${totalLine(items)}_`);
  return `${out.join("\n")}\n`;
}

/** `--json`: the header, the active leaf and branch, and every entry in file order. */
export function jsonOfSession(stored: StoredSession): Record<string, unknown> {
  return {
    header: stored.header,
    leafId: stored.tree.leafId,
    branch: stored.tree.branch().map((e) => e.id),
    path: stored.path,
    entries: stored.entries,
  };
}

/** `--tree`: the header lines, then the tree. */
export function treeOfSession(stored: StoredSession): string {
  const lines = treeLines(stored);
  const out: string[] = [...headerLines(stored), "", ...lines.map((l) => l.text)];
  if (lines.length === 0) out.push("(no messages)");
  else if (stored.tree.branch().length === 0) out.push("(the active leaf is before the first message)");
  return `${out.join("\n")}\n`;
}
