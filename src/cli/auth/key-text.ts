/**
 * What may be stored as a key. A key travels in an HTTP header
 * (`Authorization: Bearer <key>`, `x-api-key`), so it is one line of
 * printable ASCII: a line break, a NUL or another control character, a
 * letter outside ASCII, or spaces at its ends are a copy-paste slip (two
 * keys pasted together, a file with a header line, a trailing space the
 * header would lose), refused before anything is written. Messages say
 * where the fault is, never what the key is.
 */
import { RiendaError } from "../../errors.ts";

/** The most a key may be; more on stdin is not a key (a file piped by mistake). */
export const MAX_KEY_BYTES = 16 * 1024;

/** A key as piped: one trailing line break (LF or CRLF) is the end of the line, not part of the key. */
export function keyOfPipedText(text: string): string {
  if (text.endsWith("\r\n")) return text.slice(0, -2);
  if (text.endsWith("\n")) return text.slice(0, -1);
  return text;
}

/** Why `key` cannot be stored (a phrase: "is empty"), or undefined when it can. */
export function keyProblem(key: string): string | undefined {
  if (key === "") return "is empty";
  const chars = [...key];
  const at = (index: number) => `at character ${index + 1} of ${chars.length}`;
  for (const [index, char] of chars.entries()) {
    const code = char.codePointAt(0)!;
    if (char === "\n" || char === "\r") return `holds a line break ${at(index)} (one key, on one line)`;
    if (code === 0) return `holds a NUL character ${at(index)}`;
    if (code < 0x20 || code === 0x7f) return `holds a control character ${at(index)}`;
    if (code > 0x7e) return `holds a character outside ASCII ${at(index)}, which an HTTP header cannot carry`;
  }
  if (/^\s|\s$/.test(key)) return "starts or ends with a space (a copy-paste slip?)";
  return undefined;
}

/** `key`, or a usage RiendaError naming `where` the key came from and what is wrong with it. */
export function checkedKey(key: string, where: string): string {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new RiendaError("usage", `${where} ${problem}; nothing was stored`);
  return key;
}
