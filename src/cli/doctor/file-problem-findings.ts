/**
 * Findings from the problems of a definition file (an agent file, a
 * SKILL.md): the parser words every problem as a line that starts with the
 * file, then `line N` or the key at fault; doctor shows each line as a
 * finding of its own, with that line and key set apart.
 */
import type { CheckName, Finding } from "./types.ts";

/** A file that did not load, as agents and skills report one. */
export interface FileProblem {
  file: string;
  /** The agent id or skill name; "" when the file has none yet. */
  name: string;
  /** One problem per line, each starting with `<file>: `. */
  message: string;
}

/**
 * One problem finding per line of `problem.message`. `keys` are the
 * frontmatter's top-level keys, so `tools[1]: ...` or `metadata.author: ...`
 * sets `key`; `hint` gives the fix of one line.
 */
export function fileProblemFindings(
  check: CheckName,
  problem: FileProblem,
  keys: readonly string[],
  hint: (text: string) => string,
): Finding[] {
  const keyAtStart = new RegExp(`^((?:${keys.join("|")})(?:\\[\\d+\\]|\\.[^:\\s]+)?): `);
  return problem.message.split("\n").map((line) => {
    const text = line.startsWith(`${problem.file}: `) ? line.slice(problem.file.length + 2) : line;
    const finding: Finding = { severity: "problem", check, file: problem.file, message: text, hint: hint(text) };
    if (problem.name !== "") finding.name = problem.name;
    const at = /^line (\d+)/.exec(text);
    if (at) finding.line = Number(at[1]);
    const key = keyAtStart.exec(text);
    if (key) finding.key = key[1]!;
    return finding;
  });
}
