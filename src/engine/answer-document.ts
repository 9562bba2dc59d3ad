/**
 * The JSON document of a text answer under `--schema` (docs/pipelines.md):
 * the text itself when it is JSON, else the last fenced block (```json ...
 * ```) that parses. Models often write a sentence before the block
 * ("Sure.\n\n```json ...```") or a remark after it; the document is still
 * there, and a repair turn for it would cost a request (or the run).
 */
import { parseJsonWithin } from "../values.ts";

/** What reading a text answer as JSON gave. */
export type ParsedDocument = { ok: true; value: unknown } | { ok: false; reason: string };

/** A fenced block: an opening fence with an optional info string, its lines, a closing fence. */
const FENCED_BLOCK = /^[ \t]*(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/gm;

export function parseAnswerDocument(text: string): ParsedDocument {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: "the answer is empty" };
  const whole = parseJson(trimmed);
  if (whole.ok) return whole;
  const blocks = [...trimmed.matchAll(FENCED_BLOCK)].map((match) => match[2]!);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const parsed = parseJson(blocks[i]!);
    if (parsed.ok) return parsed;
  }
  const last = blocks.at(-1);
  return last === undefined
    ? whole
    : {
        ok: false,
        reason: `no fenced block of the answer is JSON (the last: ${(parseJson(last) as { reason: string }).reason})`,
      };
}

function parseJson(text: string): ParsedDocument {
  try {
    return { ok: true, value: parseJsonWithin(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
