/**
 * A zip writer that makes the same bytes from the same entries: one fixed
 * date, Unix permission bits, deflate at level 9, entries in the order
 * given. No zip64: every size stays under 4 GiB (checked).
 */
import { deflateRawSync } from "node:zlib";
import { isDirectory, type ArchiveEntry } from "./archive-entry.ts";

const encoder = new TextEncoder();
const UTF8_NAMES = 0x0800;
const MADE_BY_UNIX = 3 << 8;
const VERSION = 20;

/** The zip file of `entries`, every one dated `mtime` (seconds since 1970, stored as UTC). */
export function zipArchive(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
  const { time, date } = dosDateTime(mtime);
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.path);
    const directory = isDirectory(entry);
    const compressed = directory ? new Uint8Array(0) : new Uint8Array(deflateRawSync(entry.data, { level: 9 }));
    const method = directory ? 0 : 8;
    const crc = crc32(entry.data);
    checkSize(compressed.length, entry.path);
    checkSize(entry.data.length, entry.path);

    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, VERSION, true);
    local.setUint16(6, UTF8_NAMES, true);
    local.setUint16(8, method, true);
    local.setUint16(10, time, true);
    local.setUint16(12, date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, compressed.length, true);
    local.setUint32(22, entry.data.length, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    locals.push(new Uint8Array(local.buffer), name, compressed);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, MADE_BY_UNIX | VERSION, true);
    central.setUint16(6, VERSION, true);
    central.setUint16(8, UTF8_NAMES, true);
    central.setUint16(10, method, true);
    central.setUint16(12, time, true);
    central.setUint16(14, date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, compressed.length, true);
    central.setUint32(24, entry.data.length, true);
    central.setUint16(28, name.length, true);
    // Unix type and permission bits in the high half; 0x10 marks a directory for Windows.
    const unixMode = (directory ? 0o040000 : 0o100000) | entry.mode;
    central.setUint32(38, ((unixMode << 16) | (directory ? 0x10 : 0)) >>> 0, true);
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);

    offset += 30 + name.length + compressed.length;
    checkSize(offset, entry.path);
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

/** MS-DOS time and date fields (2-second resolution), from UTC. */
function dosDateTime(seconds: number): { time: number; date: number } {
  const d = new Date(seconds * 1000);
  const year = Math.max(d.getUTCFullYear(), 1980);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

function checkSize(size: number, path: string): void {
  if (size >= 0xffffffff) throw new Error(`${path}: too large for a zip without zip64`);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
