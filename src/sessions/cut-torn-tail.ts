/** Cuts a half-written last entry off a session file, only if nothing was appended since. */
import { fstatSync, ftruncateSync } from "node:fs";

/**
 * Cuts a torn tail off the open file `fd`: back to `validBytes`, the end of
 * its last whole entry, but only if the file still has the `readSize` bytes
 * that were read and parsed. Returns false (and cuts nothing) when the file
 * changed since: what was appended meanwhile must never be lost, and the
 * caller reads the file again.
 */
export function cutTornTail(fd: number, readSize: number, validBytes: number): boolean {
  if (fstatSync(fd).size !== readSize) return false;
  ftruncateSync(fd, validBytes);
  return true;
}
