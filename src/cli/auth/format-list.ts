/**
 * `rienda auth list`'s two forms: a table for people (one provider per
 * line: name, ✓/—/!, where its key comes from, its number of models, and
 * a problem when there is one, last so it may be long) and one JSON object
 * for scripts. Neither ever holds a key.
 */
import { textTable } from "../shared/text-table.ts";
import { keyWords, rowJson, rowMark, type ProviderRow } from "../shared/provider-rows.ts";

/** The table, a header line first; empty when there is no provider. */
export function formatAuthTable(rows: readonly ProviderRow[]): string {
  if (rows.length === 0) return "";
  const withProblem = rows.some((row) => row.problem !== undefined);
  const cells = [
    ["PROVIDER", "KEY", "FROM", "MODELS", ...(withProblem ? ["PROBLEM"] : [])],
    ...rows.map((row) => [
      row.name,
      rowMark(row),
      keyWords(row),
      row.models === undefined ? "-" : String(row.models),
      ...(withProblem ? [row.problem ?? ""] : []),
    ]),
  ];
  return textTable(cells);
}

/** `--json`: `{credentials, providers: [...], unused_keys}`, fields in a stable order. */
export function authJson(rows: readonly ProviderRow[], credentialsPath: string, unusedKeys: readonly string[]): string {
  return JSON.stringify({
    credentials: credentialsPath,
    providers: rows.map(rowJson),
    unused_keys: unusedKeys,
  });
}
