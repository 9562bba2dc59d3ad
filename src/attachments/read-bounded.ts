/**
 * read(2) from a descriptor's own offset (a `null` position) until its end
 * or past a limit, without reading further: a file named by `-f`, and a
 * regular file on stdin, which is read from where its reader is and left
 * at its end (read-stdin.ts).
 */
import { readSync } from "node:fs";

/** What a bounded read gives: the bytes, or `over` when there is more than the limit (with the first `limit` bytes). */
export type BoundedRead = { over: false; bytes: Uint8Array } | { over: true; head: Uint8Array };

/** Reads at most `limit` bytes of `fd`; `first` sees the first bytes read. */
export function readBounded(fd: number, limit: number, first?: (bytes: Uint8Array) => void): BoundedRead {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, limit + 1 - total));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    if (total === 0) first?.(chunk.subarray(0, read));
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > limit) return { over: true, head: Buffer.concat(chunks, total).subarray(0, limit) };
  }
  return { over: false, bytes: Buffer.concat(chunks, total) };
}
