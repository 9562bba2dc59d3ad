/**
 * Small checks and descriptions of values that came from outside (JSON,
 * YAML, what a user module returned, the file system), shared by every
 * folder so that messages describe a value the same way everywhere.
 *
 * A leaf: imports nothing of ours; no `Bun.*`.
 */
import { statSync } from "node:fs";

/** A plain object as parsed JSON or YAML gives it (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `path` names a regular file (following links); false when it cannot be read. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A JavaScript value's kind as messages name it: "null", "an array",
 * "a Promise", "an object", "a string", "a function", ...
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      return "an object";
  }
}

/**
 * A YAML value in the words of a YAML file ("a mapping", "a list",
 * "empty"), with the scalar itself so the user can find it: `a string
 * ("yes")`, `a number (3)`. Long strings are cut at 40 characters.
 */
export function describeYamlValue(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return `a boolean (${value})`;
  if (typeof value === "object") return "a mapping";
  return typeof value;
}
