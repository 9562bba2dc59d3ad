/** Separating the `---` YAML frontmatter of a definition file (an agent, a skill) from its Markdown body. */

/** The two parts of a definition file, or what is wrong with its layout. */
export type SplitFile = { ok: true; frontmatter: string; body: string } | { ok: false; problem: string };

/** What a kind of definition file holds, for messages about its layout. */
export interface FileLayout {
  /** Keys the frontmatter must have. */
  required: readonly string[];
  /** What the body is, e.g. "the system prompt". */
  body: string;
}

/** An agent file: description and model, then the system prompt. */
export const AGENT_LAYOUT: FileLayout = { required: ["description", "model"], body: "the system prompt" };

/**
 * Splits `text`. A UTF-8 BOM and CRLF line ends are tolerated; the opening
 * and closing `---` lines may carry trailing spaces. The frontmatter text
 * keeps its own lines, so YAML line N is file line N + 1. `layout` words
 * the message about a missing frontmatter.
 */
export function splitFrontmatter(text: string, layout: FileLayout = AGENT_LAYOUT): SplitFile {
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const normalized = text.includes("\r\n") ? text.slice(bom).replace(/\r\n/g, "\n") : text.slice(bom);
  // Only the frontmatter is cut into lines: a skill's body can be long, and is kept whole.
  const lineEnd = (from: number): number => {
    const at = normalized.indexOf("\n", from);
    return at === -1 ? normalized.length : at;
  };
  const firstEnd = lineEnd(0);
  if (normalized.slice(0, firstEnd).trim() !== "---") {
    return {
      ok: false,
      problem: `must start with a "---" line, then the YAML frontmatter (${layout.required.join(", ")}), a closing "---" line and ${layout.body}`,
    };
  }
  for (let start = firstEnd + 1; start <= normalized.length && firstEnd < normalized.length; ) {
    const end = lineEnd(start);
    if (normalized.slice(start, end).trim() === "---") {
      return {
        ok: true,
        frontmatter: normalized.slice(firstEnd + 1, Math.max(firstEnd + 1, start - 1)),
        body: normalized.slice(end + 1),
      };
    }
    start = end + 1;
  }
  return { ok: false, problem: 'the frontmatter opened on line 1 is never closed (add a "---" line after it)' };
}
