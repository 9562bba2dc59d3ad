/** Turns what a tool returned into a tool result, naming a wrong shape. */
import { describeValue } from "../values.ts";
import type { ToolResult } from "./types.ts";

const SHAPES = "a string or { text: string, isError?: boolean }";

/**
 * The result a returned value stands for: a string, or `{ text, isError? }`
 * (isError a boolean, or absent/null). Anything else is an error result
 * naming what came back, so a mistake reaches the model as a clear message.
 * `type` describes the value as the runtime saw it ("a number", "a Promise").
 */
export function resultFromValue(value: unknown, type: string): ToolResult {
  if (typeof value === "string" && type === "a string") return { text: value, isError: false };
  if (type === "an object" && value !== null && typeof value === "object") {
    const { text, isError } = value as { text?: unknown; isError?: unknown };
    if (typeof text !== "string") return mistake("an object without a text string");
    if (isError !== undefined && isError !== null && typeof isError !== "boolean") {
      return mistake(`an object whose isError is ${describeValue(isError)} instead of a boolean`);
    }
    return { text, isError: isError === true };
  }
  if (type === "a Promise")
    return mistake("a Promise (execute must be synchronous: ctx calls already wait for their answer)");
  return mistake(type);
}

function mistake(what: string): ToolResult {
  return { text: `execute returned ${what}; it must return ${SHAPES}`, isError: true };
}
