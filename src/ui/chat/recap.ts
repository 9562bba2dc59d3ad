/**
 * What a resumed conversation shows of its past: the last few prompts and
 * answers, tool calls as one line each, so the user sees where they are
 * without the whole history scrolling by.
 */
import type { AnswerCut } from "../../providers/index.ts";
import type { EndedReason, HistoryItem } from "./types.ts";

/** One remembered step of the conversation. */
export type RecapItem =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string; interrupted?: AnswerCut }
  | { kind: "tool"; name: string; arguments: unknown }
  | { kind: "ended"; reason: EndedReason }
  | { kind: "condensed" };

/** The recap: the last `max` items, and how many earlier ones were left out. */
export interface Recap {
  items: RecapItem[];
  omitted: number;
}

/** The prompts, answers and tool calls of a branch, keeping the last `max`. Tool results and thinking are left out. */
export function recap(messages: readonly HistoryItem[], max: number): Recap {
  const items: RecapItem[] = [];
  for (const message of messages) {
    if (message.role === "ended") {
      items.push({ kind: "ended", reason: message.reason });
      continue;
    }
    if (message.role === "condensed") {
      items.push({ kind: "condensed" });
      continue;
    }
    let text = "";
    for (const block of message.blocks) {
      if (block.type === "text") text += block.text;
      else if (block.type === "tool_call") {
        if (text.trim()) items.push({ kind: message.role === "user" ? "user" : "assistant", text: text.trim() });
        text = "";
        items.push({ kind: "tool", name: block.toolCallName, arguments: block.toolCallArguments });
      }
    }
    if (message.role === "user") {
      if (text.trim()) items.push({ kind: "user", text: text.trim() });
    } else if (text.trim() || message.interrupted) {
      // A partial answer is shown even when the cut came before any text (thinking only).
      items.push({
        kind: "assistant",
        text: text.trim(),
        ...(message.interrupted ? { interrupted: message.interrupted } : {}),
      });
    }
  }
  const kept = items.slice(Math.max(0, items.length - max));
  return { items: kept, omitted: items.length - kept.length };
}
