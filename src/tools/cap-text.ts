/** The most UTF-8 bytes of result text the model reads (tools.md "Output cap"). */
export const RESULT_CAP_BYTES = 256 * 1024;

/** Appended after a cut, on its own line. */
const TRUNCATION_MARKER = "\n[output truncated]";

/**
 * Fits `text` in `maxBytes` of UTF-8, marker included (the cap is on what
 * the model reads, as the shell's result fits in it whole): a longer text
 * is cut without splitting a character and ends with the marker line. Text
 * within the cap is returned unchanged.
 */
export function capText(text: string, maxBytes: number = RESULT_CAP_BYTES): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts need no encoding at all.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  let cut = Math.max(0, maxBytes - TRUNCATION_MARKER.length);
  // Step back over continuation bytes (10xxxxxx) to the start of a character.
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  // ignoreBOM: a text that starts with U+FEFF keeps it.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, cut)) + TRUNCATION_MARKER;
}
