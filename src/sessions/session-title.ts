/** A session's title: a user message's text as one line of at most 80 characters. */
import type { Block, TextBlock } from "../providers/types.ts";

/** Titles are one line of at most this many characters (code points). */
const TITLE_MAX_CHARS = 80;

/** The title form of any text: its first non-blank line, trimmed, at most 80 characters. */
export function normalizeTitle(text: string): string {
  const line = text.split(/\r?\n|\r/).find((l) => l.trim() !== "") ?? "";
  const chars = [...line.trim()];
  return chars.length <= TITLE_MAX_CHARS ? chars.join("") : chars.slice(0, TITLE_MAX_CHARS).join("").trimEnd();
}

/** The title a user message gives a session, or undefined when it has no text (tool results only). */
export function titleFromBlocks(blocks: readonly Block[]): string | undefined {
  const text = blocks
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  const title = normalizeTitle(text);
  return title === "" ? undefined : title;
}
