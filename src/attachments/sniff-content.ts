/**
 * What a file's bytes are, told by their content and never by a file name:
 * one of the four image formats every protocol takes (PNG, JPEG, GIF,
 * WebP), a PDF, UTF-8 text, or other binary data (which Rienda refuses
 * rather than send the model mojibake).
 */
import type { AttachmentMediaType } from "../providers/index.ts";

/** The verdict on some bytes. */
export type SniffedContent =
  | { kind: "text"; text: string }
  | { kind: "binary"; mediaType: Exclude<AttachmentMediaType, "text/plain">; label: string }
  | { kind: "unknown"; reason: string };

const SIGNATURES: {
  mediaType: Exclude<AttachmentMediaType, "text/plain">;
  label: string;
  matches(bytes: Uint8Array): boolean;
}[] = [
  {
    mediaType: "image/png",
    label: "a PNG image",
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mediaType: "image/jpeg", label: "a JPEG image", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    mediaType: "image/gif",
    label: "a GIF image",
    matches: (b) => ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a",
  },
  {
    mediaType: "image/webp",
    label: "a WebP image",
    matches: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
  { mediaType: "application/pdf", label: "a PDF", matches: (b) => ascii(b, 0, 5) === "%PDF-" },
];

/**
 * Text is valid UTF-8 without a NUL byte (a UTF-8 byte order mark is
 * dropped: it is no part of what the model should read); anything else is
 * an image or PDF by its signature, or unknown binary data with the reason.
 */
export function sniffContent(bytes: Uint8Array): SniffedContent {
  for (const signature of SIGNATURES) {
    if (signature.matches(bytes)) return { kind: "binary", mediaType: signature.mediaType, label: signature.label };
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) return { kind: "unknown", reason: `binary data (a NUL byte at offset ${nul})` };
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return { kind: "text", text };
  } catch {
    return { kind: "unknown", reason: `binary data (not UTF-8 text, at offset ${firstInvalidUtf8(bytes)})` };
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return i;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
