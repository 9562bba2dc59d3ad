/**
 * The lines of `rienda rpc`'s stdin, each at most MAX_RPC_LINE_BYTES.
 * readline keeps a line in memory however long it grows: a client (or
 * whatever feeds it) sending 300 MB without a newline took 700 MB. A line
 * past the cap is dropped up to its newline and reported once, as soon as
 * it passes the cap; the lines after it are read as usual (docs/rpc.md).
 */
import type { Readable } from "node:stream";

/** The longest line read: a prompt of 10 MiB of text (the most a file attachment holds), JSON-escaped, fits. */
export const MAX_RPC_LINE_BYTES = 32 * 1024 * 1024;

/** What the reader hands on. */
export interface LineHandlers {
  line(text: string): void;
  /** A line passed `maxBytes`: what follows up to its newline is dropped. */
  tooLong(maxBytes: number): void;
  end(): void;
}

/** Reads `input` line by line (LF or CRLF); returns a function that stops reading. */
export function readCappedLines(input: Readable, handlers: LineHandlers, maxBytes = MAX_RPC_LINE_BYTES): () => void {
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  const finish = (piece: Buffer) => {
    if (!dropping) {
      const text = Buffer.concat([...parts, piece]).toString("utf8");
      handlers.line(text.endsWith("\r") ? text.slice(0, -1) : text);
    }
    parts = [];
    size = 0;
    dropping = false;
  };
  const keep = (piece: Buffer) => {
    if (dropping || piece.length === 0) return;
    size += piece.length;
    if (size > maxBytes) {
      dropping = true;
      parts = [];
      handlers.tooLong(maxBytes);
      return;
    }
    parts.push(piece);
  };
  const onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
      const piece = data.subarray(0, nl);
      if (!dropping && size + piece.length > maxBytes) keep(piece);
      finish(dropping ? Buffer.alloc(0) : piece);
      data = data.subarray(nl + 1);
    }
    keep(data);
  };
  const onEnd = () => {
    if (size > 0 && !dropping) finish(Buffer.alloc(0));
    handlers.end();
  };
  input.on("data", onData);
  input.once("end", onEnd);
  return () => {
    input.off("data", onData);
    input.off("end", onEnd);
    input.pause();
  };
}
