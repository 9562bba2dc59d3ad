/**
 * What is wrong with line 1 of a session file, in words a person can act
 * on, shared by loading (an error) and listing (a mark on the row). A file
 * that is empty, or holds only a partial first line, is what a crash while
 * a session was being created leaves: that case is told apart (`cutOff`),
 * because listing leaves such files out instead of marking them.
 */
import { isRecord } from "./json-fields.ts";
import { SESSION_FORMAT_VERSION } from "./types.ts";

/** Why line 1 is not a header this version reads. */
export interface HeaderProblem {
  problem: string;
  /** A crash while the session was being created, not a foreign or damaged file. */
  cutOff: boolean;
}

/** Line 1 as the caller has it: its text (undefined for an empty file), whether it ends in `\n`, and whether anything follows it. */
export interface FirstLine {
  text: string | undefined;
  terminated: boolean;
  more: boolean;
}

/**
 * The problem with `line`, whose JSON value (or `invalid` when it is not
 * JSON) is `value`; null when it is a valid header.
 */
export function headerProblem(line: FirstLine, value: unknown, invalid: unknown): HeaderProblem | null {
  const text = line.text ?? "";
  if (text.trim() === "" && !line.more)
    return { problem: "it is empty (it was cut off while being created)", cutOff: true };
  if (text.trim() === "")
    return { problem: "line 1 is empty; a session file starts with its header line", cutOff: false };
  if (value === invalid) {
    if (!line.terminated && !line.more)
      return { problem: "it has no complete header line (it was cut off while being created)", cutOff: true };
    return {
      problem: `line 1 is not valid JSON, so it is not a session header (it begins ${JSON.stringify(preview(text))})`,
      cutOff: false,
    };
  }
  return headerValueProblem(value);
}

/** What is wrong with a parsed line-1 value, or null. */
export function headerValueProblem(value: unknown): HeaderProblem | null {
  const problem = (text: string) => ({ problem: text, cutOff: false });
  const expected = 'a session file starts with {"kind":"header",...}';
  if (!isRecord(value))
    return problem(
      `line 1 is not a session header: it is ${Array.isArray(value) ? "a list" : "not an object"} (${expected})`,
    );
  if (value.kind !== "header") {
    const kind = value.kind === undefined ? 'it has no "kind"' : `its "kind" is ${JSON.stringify(value.kind)}`;
    return problem(`line 1 is not a session header: ${kind} (${expected})`);
  }
  if (value.version !== SESSION_FORMAT_VERSION) {
    return problem(
      `unsupported session format version ${JSON.stringify(value.version)} (this Rienda reads version ${SESSION_FORMAT_VERSION})`,
    );
  }
  if (typeof value.id !== "string" || value.id === "") return problem("the header has no session id");
  return null;
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 40 ? `${oneLine.slice(0, 40)}…` : oneLine;
}
