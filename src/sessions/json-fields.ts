/** Reading fields of parsed JSON lines, which may hold anything. */

export { isRecord } from "../values.ts";

/** The first non-empty string among `values`. */
export function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v !== "") return v;
  return undefined;
}

/** The value if it is a string, else "". */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
