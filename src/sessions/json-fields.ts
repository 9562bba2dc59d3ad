/** Reading fields of parsed JSON lines, which may hold anything. */

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first non-empty string among `values`. */
export function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v !== "") return v;
  return undefined;
}

/** The value if it is a string, else "". */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
