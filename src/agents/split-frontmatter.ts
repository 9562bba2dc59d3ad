/** Separating the `---` YAML frontmatter of an agent file from its Markdown body. */

/** The two parts of an agent file, or what is wrong with its layout. */
export type SplitFile =
  | { ok: true; frontmatter: string; body: string }
  | { ok: false; problem: string };

/**
 * Splits `text`. A UTF-8 BOM and CRLF line ends are tolerated; the opening
 * and closing `---` lines may carry trailing spaces. The frontmatter text
 * keeps its own lines, so YAML line N is file line N + 1.
 */
export function splitFrontmatter(text: string): SplitFile {
  const normalized = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n");
  const lines = normalized.split("\n");
  if (lines[0]?.trim() !== "---") {
    return {
      ok: false,
      problem: 'must start with a "---" line, then the YAML frontmatter (description, model), a closing "---" line and the system prompt',
    };
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (close < 0) return { ok: false, problem: 'the frontmatter opened on line 1 is never closed (add a "---" line after it)' };
  return { ok: true, frontmatter: lines.slice(1, close).join("\n"), body: lines.slice(close + 1).join("\n") };
}
