import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { readCappedLines } from "../../../src/cli/rpc/rpc-lines.ts";

/** Feeds `chunks` and returns what the reader handed on, in order. */
async function read(chunks: string[], max: number): Promise<string[]> {
  const input = new PassThrough();
  const seen: string[] = [];
  const ended = new Promise<void>((resolve) =>
    readCappedLines(
      input,
      { line: (t) => seen.push(`line:${t}`), tooLong: (m) => seen.push(`too long:${m}`), end: resolve },
      max,
    ),
  );
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await ended;
  return seen;
}

describe("readCappedLines", () => {
  test("splits on LF and CRLF across chunks; a last line without a newline is read", async () => {
    expect(await read(["ab", "c\nde\r", "\nf"], 10)).toEqual(["line:abc", "line:de", "line:f"]);
  });

  test("a line past the cap is reported once, as soon as it passes, dropped to its newline; the next is read", async () => {
    expect(await read(["12345", "6789", "0123", "456\nok\n"], 10)).toEqual(["too long:10", "line:ok"]);
    expect(await read(["123456789012\nok"], 10)).toEqual(["too long:10", "line:ok"]);
    expect(await read(["1234567890\n"], 10)).toEqual(["line:1234567890"]);
  });
});
