import { describe, expect, test } from "bun:test";
import { HiddenLine } from "../../../src/cli/auth/hidden-line.ts";

describe("a line typed with echo off", () => {
  test("typed and pasted characters are kept; Enter ends the line and what follows it is ignored", () => {
    const line = new HiddenLine();
    expect(line.feed("sk-")).toBe("reading");
    expect(line.feed("pasted-key\rnext")).toBe("done");
    expect(line.value).toBe("sk-pasted-key");
    expect(line.feed("more")).toBe("done");
    expect(line.value).toBe("sk-pasted-key");
  });

  test("Backspace removes the last character, Ctrl-U all of them; Ctrl-D ends the line", () => {
    const line = new HiddenLine();
    line.feed("abc\u007f\u007fx\bz");
    expect(line.value).toBe("az");
    line.feed("\u0015k");
    expect(line.value).toBe("k");
    expect(line.feed("\u0004")).toBe("done");
    expect(line.value).toBe("k");
  });

  test("Ctrl-C interrupts", () => {
    const line = new HiddenLine();
    expect(line.feed("ab\u0003cd\r")).toBe("interrupted");
  });

  test("escape sequences (arrows, function keys, Alt-x) and other control keys are never part of the key", () => {
    const line = new HiddenLine();
    line.feed("a\u001b[Ab\u001b[1;5Cc\u001bOPd\u001bxe\tf");
    expect(line.value).toBe("abcdef");
    // A sequence split across two reads.
    line.feed("\u001b[");
    line.feed("15~g");
    expect(line.value).toBe("abcdefg");
  });
});
