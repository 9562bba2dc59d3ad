import { describe, expect, test } from "bun:test";
import { LineTracker } from "../../src/ui/stream-writer.ts";
import { terminalSafe } from "../../src/ui/terminal-text.ts";

function tracker(clean?: (text: string) => string) {
  const written: string[] = [];
  return { written, t: new LineTracker({ write: (text: string) => written.push(text) }, clean) };
}

describe("LineTracker on a terminal (cleaned)", () => {
  test("a CRLF split between two pieces of output is one line break, not two", () => {
    const { written, t } = tracker(terminalSafe);
    t.raw("first\r");
    t.raw("\nsecond\r\n");
    expect(written.join("")).toBe("first\r\nsecond\r\n");
  });

  test("a held carriage return that stood alone still ends its line, before live output or a whole line", () => {
    const a = tracker(terminalSafe);
    a.t.raw("50%\r");
    a.t.raw("100%\n");
    expect(a.written.join("")).toBe("50%\n100%\n");
    const b = tracker(terminalSafe);
    b.t.raw("50%\r");
    b.t.line("tool: next");
    expect(b.written.join("")).toBe("50%\ntool: next\n");
  });
});

describe("LineTracker with the bytes as they come (a piped stdout)", () => {
  test("nothing is held back or changed: a trailing carriage return is written at once", () => {
    const { written, t } = tracker();
    t.raw("answer\r");
    expect(written).toEqual(["answer\r"]);
    t.raw("\n");
    expect(written.join("")).toBe("answer\r\n");
  });
});
