/**
 * The real stdout of `rienda rpc`, owned by the protocol (docs/rpc.md): a
 * tool that writes to `/dev/stdout` or `/proc/self/fd/1` (by path, which
 * the runtime's routing of descriptor 1 cannot see), or a process started
 * with that path as its output, must never put a line into the stream a
 * program parses.
 *
 * So, where the stdout can be opened by path (a pipe, a file, a terminal:
 * the paths that lead tools to it), the protocol opens its own descriptor
 * on it, and descriptor 1 is moved to stderr when stderr is a pipe or a
 * terminal (where a person can still read what lands there), else to
 * /dev/null (a file opened anew has an offset of its own, and would write
 * over what stderr writes): whatever reaches "stdout" afterwards, by any
 * path or descriptor, never reaches the protocol's stream. A
 * stdout that cannot be opened by path (a socket, as Node's child_process
 * gives) cannot be reached by path either, and is used as it is.
 *
 * Moving descriptor 1 without dup2: closing it and opening a file gives the
 * lowest free descriptor, 1, at the start of the command, before any
 * worker runs.
 */
import { closeSync, fstatSync, openSync, writeSync } from "node:fs";

/** Where protocol lines go. */
export interface ProtocolOut {
  write(text: string): void;
}

/** Claims stdout for the protocol; `onClosed` is called once when its reader goes away. */
export function claimStdout(onClosed: () => void): ProtocolOut {
  const own = openOwnStdout();
  if (own === undefined) return { write: (text) => void process.stdout.write(text) };
  moveDescriptorOne();
  let closed = false;
  return {
    write(text) {
      if (closed) return;
      try {
        writeAll(own, Buffer.from(text));
      } catch {
        // EPIPE: the program stopped reading. Nothing more can be said to it.
        closed = true;
        onClosed();
      }
    },
  };
}

/** A descriptor of our own on what descriptor 1 is, when it can be opened by path. */
function openOwnStdout(): number | undefined {
  try {
    // Append: a file stdout (`rpc > log.jsonl`) is neither truncated nor written over.
    return openSync("/dev/fd/1", "a");
  } catch {
    return undefined;
  }
}

/** Puts stderr (or /dev/null) on descriptor 1, which the caller has a copy of. */
function moveDescriptorOne(): void {
  const targets = stderrIsStream() ? ["/dev/fd/2", "/dev/null"] : ["/dev/null"];
  closeSync(1);
  for (;;) {
    const fd = openFirst(...targets);
    // 0: stdin was closed too; it keeps this file, and the next open gets 1.
    if (fd !== 0) return;
  }
}

/** Whether stderr is a pipe or a terminal: a stream with no offset, which a second descriptor on it cannot write over. */
function stderrIsStream(): boolean {
  try {
    const stat = fstatSync(2);
    return stat.isFIFO() || stat.isCharacterDevice();
  } catch {
    return false;
  }
}

/** The first of `paths` that opens for appending; undefined when none does. */
function openFirst(...paths: string[]): number | undefined {
  for (const path of paths) {
    try {
      return openSync(path, "a");
    } catch {
      // the next one
    }
  }
  return undefined;
}

/** write(2) until every byte is out; a full pipe opened non-blocking is waited for, briefly. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}
