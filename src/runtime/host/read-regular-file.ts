/** Host side: reads a regular file without ever blocking on a pipe or device. */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

/**
 * The bytes of a regular file. Anything else (a named pipe, a socket, a
 * device) is refused without reading (error code `ENOTREG`): the host reads
 * on Rienda's main thread, and a pipe with no writer (a trap a cloned
 * repository can set) or /dev/zero would block it for ever, deaf to
 * Ctrl-C. Opened without blocking, so that even opening a pipe returns at
 * once. A directory fails with `EISDIR`.
 */
export function readRegularFile(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!stat.isFile()) throw notRegular();
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The error a non-regular file gets. */
export function notRegular(): Error {
  return Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
}
