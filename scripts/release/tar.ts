/**
 * A ustar writer that makes the same bytes from the same entries: owner and
 * group 0 with no names, one fixed mtime, entries in the order given. GNU
 * and BSD tar both read it. Paths longer than 100 bytes use ustar's prefix
 * field; one that fits neither is refused rather than cut.
 */
import { isDirectory, type ArchiveEntry } from "./archive-entry.ts";

const BLOCK = 512;
const encoder = new TextEncoder();

/** The tar stream of `entries`, every one stamped with `mtime` (seconds since 1970). */
export function tarArchive(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const entry of entries) {
    const header = tarHeader(entry, mtime);
    const padded = new Uint8Array(Math.ceil(entry.data.length / BLOCK) * BLOCK);
    padded.set(entry.data);
    parts.push(header, padded);
    length += header.length + padded.length;
  }
  // Two empty blocks end the archive.
  parts.push(new Uint8Array(BLOCK * 2));
  length += BLOCK * 2;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function tarHeader(entry: ArchiveEntry, mtime: number): Uint8Array {
  const header = new Uint8Array(BLOCK);
  const { name, prefix } = splitPath(entry.path);
  writeText(header, 0, 100, name);
  writeOctal(header, 100, 8, entry.mode);
  writeOctal(header, 108, 8, 0); // uid
  writeOctal(header, 116, 8, 0); // gid
  writeOctal(header, 124, 12, isDirectory(entry) ? 0 : entry.data.length);
  writeOctal(header, 136, 12, mtime);
  header.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  header[156] = isDirectory(entry) ? 0x35 : 0x30; // "5" directory, "0" file
  writeText(header, 257, 6, "ustar\0");
  writeText(header, 263, 2, "00");
  writeText(header, 345, 155, prefix);
  let sum = 0;
  for (const byte of header) sum += byte;
  writeText(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** ustar keeps up to 155 bytes of leading directories apart from a name of up to 100. */
function splitPath(path: string): { name: string; prefix: string } {
  if (encoder.encode(path).length <= 100) return { name: path, prefix: "" };
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  for (let cut = trimmed.lastIndexOf("/"); cut > 0; cut = trimmed.lastIndexOf("/", cut - 1)) {
    const prefix = trimmed.slice(0, cut);
    const name = path.slice(cut + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return { name, prefix };
  }
  throw new Error(`path too long for a ustar archive: ${path}`);
}

function writeText(header: Uint8Array, offset: number, size: number, text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > size) throw new Error(`tar header field too long: ${text}`);
  header.set(bytes, offset);
}

function writeOctal(header: Uint8Array, offset: number, size: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > size - 1) throw new Error(`value too large for a tar header: ${value}`);
  writeText(header, offset, size, `${digits.padStart(size - 1, "0")}\0`);
}
