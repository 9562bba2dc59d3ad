/**
 * The lines of `rienda rpc`'s stdin, framed on LF alone (docs/rpc.md): a
 * JSON string may hold U+2028 and U+2029 raw (JSON.stringify writes them
 * so, and Python's `ensure_ascii=False`), and a line reader that also ends
 * lines there (the runtime's readline does) would cut such a command in
 * pieces that each fail to parse. A CR before the LF is whitespace to
 * JSON and is left to it. Bytes are decoded as UTF-8 across chunk ends.
 */
import { StringDecoder } from "node:string_decoder";

/** A reading in progress; `close` stops it (no more lines, no end). */
export interface LineReading {
  close(): void;
}

/** Calls `onLine` with each line of `input` (without its LF), and `onEnd` once when the input ends. */
export function readLfLines(input: NodeJS.ReadableStream, onLine: (line: string) => void, onEnd: () => void): LineReading {
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  let closed = false;
  const take = (text: string): void => {
    buffer += text;
    let newline = buffer.indexOf("\n");
    while (newline !== -1 && !closed) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      onLine(line);
      newline = buffer.indexOf("\n");
    }
  };
  const onData = (chunk: Buffer | string): void => take(typeof chunk === "string" ? chunk : decoder.write(chunk));
  const finish = (): void => {
    if (closed) return;
    // A last line without its LF is still a line.
    take(decoder.end());
    if (buffer !== "" && !closed) onLine(buffer);
    buffer = "";
    closed = true;
    detach();
    onEnd();
  };
  const detach = (): void => {
    input.removeListener("data", onData);
    input.removeListener("end", finish);
    input.removeListener("close", finish);
  };
  input.on("data", onData);
  input.once("end", finish);
  input.once("close", finish);
  return {
    close() {
      closed = true;
      detach();
      input.pause();
    },
  };
}
