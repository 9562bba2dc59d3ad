/**
 * The plain tables of the listing commands (`rienda sessions`, `auth list`,
 * `models`): a header row and one row per item, columns two spaces apart,
 * each cell padded to its column's width except the last, which may be long.
 */
import { displayWidth } from "../../platform.ts";

/** The rows as lines, each ending in a newline, trailing spaces trimmed. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, col) => Math.max(...rows.map((row) => displayWidth(row[col] ?? ""))));
  const line = (row: readonly string[]) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell + " ".repeat(widths[col]! - displayWidth(cell))))
      .join("  ")
      .trimEnd();
  return rows.map((row) => `${line(row)}\n`).join("");
}
