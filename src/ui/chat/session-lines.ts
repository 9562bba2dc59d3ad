/**
 * `/sessions` as lines: newest first, the current one marked, the title cut
 * to the terminal width so each session stays on one line.
 */
import { displayWidth } from "../../platform.ts";
import type { SessionRow } from "./types.ts";
import { terminalLine } from "../terminal-text.ts";
import { truncateToWidth } from "./wrap-text.ts";

/** One line per session plus a header; `current` is marked with `*`. */
export function sessionLines(rows: SessionRow[], current: string | null, width: number): string[] {
  const table = [
    ["", "ID", "UPDATED", "AGENT", "MSGS", "TITLE"],
    ...rows.map((r) => [
      r.id === current ? "*" : " ",
      r.id,
      localTime(r.updatedAt),
      oneLine(r.agent),
      String(r.messageCount),
      oneLine(r.title) || "(untitled)",
    ]),
  ];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => displayWidth(row[col]!))));
  return table.map((row) => {
    const fixed = row
      .slice(0, -1)
      .map((cell, col) => cell + " ".repeat(widths[col]! - displayWidth(cell)))
      .join(" ");
    const room = width - displayWidth(fixed) - 1;
    return `${fixed} ${room >= 8 ? truncateToWidth(row[row.length - 1]!, room) : ""}`.trimEnd();
  });
}

/** `YYYY-MM-DD HH:MM` in local time; "-" for an unreadable time. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function oneLine(text: string): string {
  return terminalLine(text).trim();
}
