/**
 * The one-line texts of the chat screen, as pure functions of their data:
 * a tool call, a turn's duration and token usage, the first line of a
 * result. Styling is applied by the caller.
 */
import type { Usage } from "../../providers/index.ts";
import { displayWidth } from "../../platform.ts";
import { dollarsText } from "../plain-printer.ts";
import { truncateToWidth } from "./wrap-text.ts";

/** A tool call's arguments on one line: compact JSON, or the raw text the model sent when it was not JSON. */
export function shortArguments(args: unknown): string {
  if (typeof args === "string") return args;
  if (args === undefined) return "";
  if (args !== null && typeof args === "object" && Object.keys(args).length === 0) return "";
  return JSON.stringify(args) ?? "";
}

/** The parts of a tool call line, cut to fit `width` columns: `• name args`. */
export function toolCallParts(name: string, args: unknown, width: number): { name: string; args: string } {
  const shownName = truncateToWidth(name, Math.max(8, width - 2));
  const room = width - 2 - displayWidth(shownName) - 1;
  const text = shortArguments(args);
  return { name: shownName, args: room >= 4 && text !== "" ? truncateToWidth(text, room) : "" };
}

/** A duration for people: "0.4s", "12.3s", "2m05s", "1h02m". */
export function elapsedText(ms: number): string {
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}h${pad(minutes)}m` : `${minutes}m${pad(seconds)}s`;
}

/** Token usage of a turn: "1,204 in / 52 out tokens", with cache and reasoning counts when reported. */
export function usageText(usage: Usage | null | undefined): string {
  if (!usage || usage.inputTokens + usage.outputTokens === 0) return "no tokens";
  const n = (value: number) => value.toLocaleString("en-US");
  const extra = [
    usage.cacheReadTokens ? `${n(usage.cacheReadTokens)} cached` : "",
    usage.reasoningTokens ? `${n(usage.reasoningTokens)} reasoning` : "",
  ].filter(Boolean);
  return `${n(usage.inputTokens)} in / ${n(usage.outputTokens)} out tokens${extra.length ? ` (${extra.join(", ")})` : ""}`;
}

/** The end-of-turn line: duration, usage, and the turn's cost when every answer in it was priced. */
export function turnSummaryText(elapsedMs: number, usage: Usage | null | undefined, cost?: number): string {
  return `─ ${elapsedText(elapsedMs)} · ${usageText(usage)}${cost !== undefined ? ` · ${dollarsText(cost)}` : ""}`;
}

/** First non-blank line of a text, with "(+N lines)" when more follow; "" for blank text. */
export function firstLineOf(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length === 0) return "";
  return lines.length > 1 ? `${lines[0]!.trim()} (+${lines.length - 1} lines)` : lines[0]!.trim();
}

/** Last non-blank line of a text ("" for blank text). */
export function lastLineOf(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  return lines.length > 0 ? lines[lines.length - 1]!.trim() : "";
}

/** Counts words, for the collapsed thinking line. */
export function wordCount(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === "" ? 0 : words.length;
}
