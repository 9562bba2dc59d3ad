import { describe, expect, test } from "bun:test";
import { cleanedSink, jsonWithControlsEscaped, terminalLine, terminalSafe } from "../../src/ui/terminal-text.ts";

describe("terminalSafe", () => {
  test("every C0 control but tab and line feed, DEL and every C1 control is shown as \\xHH", () => {
    expect(terminalSafe("a\u001b]0;t\u0007b\u001b[2J\u0000\u0008\u007f\u0085\u009b\u009d")).toBe(
      String.raw`a\x1b]0;t\x07b\x1b[2J\x00\x08\x7f\x85\x9b\x9d`,
    );
  });

  test("line feeds, tabs and CRLF stay; a lone CR starts a new line, so nothing already shown is written over", () => {
    expect(terminalSafe("a\tb\nc\r\nd\re")).toBe("a\tb\nc\r\nd\ne");
  });

  test("text without control characters, wide characters and backslashes included, is unchanged", () => {
    const text = "日本語 C:\\path \\x1b ünïcödé ✓";
    expect(terminalSafe(text)).toBe(text);
  });

  test("the characters that reorder bidirectional text are shown as \\uHHHH; zero-width joiners (emoji, scripts) stay", () => {
    // "Trojan Source": a right-to-left override makes `rm -rf ~ # safe` read otherwise in the question that asks to run it.
    expect(terminalSafe("echo \u202eefas # ~ fr- mr\u202c ok")).toBe(String.raw`echo \u202eefas # ~ fr- mr\u202c ok`);
    expect(terminalSafe("\u2066a\u2069\u200e\u200f\u061c")).toBe(String.raw`\u2066a\u2069\u200e\u200f\u061c`);
    expect(terminalSafe("👨\u200d👩\u200d👧 क्\u200dष")).toBe("👨\u200d👩\u200d👧 क्\u200dष");
  });

  test("terminalLine makes one line of it", () => {
    expect(terminalLine("a\n\n\tb\r\nc\u001b")).toBe(String.raw`a b c\x1b`);
  });
});

describe("cleanedSink", () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, isTTY, write: (text: string) => written.push(text) };
  };

  test("always: cleaned whether or not it is a terminal", () => {
    for (const isTTY of [true, false]) {
      const s = sink(isTTY);
      cleanedSink(s, "always").write("x\u001b[2J");
      expect(s.written).toEqual([String.raw`x\x1b[2J`]);
    }
  });

  test("terminal: cleaned on a terminal, the bytes as they are otherwise", () => {
    const tty = sink(true);
    cleanedSink(tty, "terminal").write("x\u001b[2J");
    expect(tty.written).toEqual([String.raw`x\x1b[2J`]);
    const pipe = sink(false);
    cleanedSink(pipe, "terminal").write("x\u001b[2J");
    expect(pipe.written).toEqual(["x\u001b[2J"]);
  });
});

describe("jsonWithControlsEscaped", () => {
  test("DEL and C1 controls are escaped as JSON does C0; the parsed value is the same", () => {
    const value = { text: "a\u001b[2J\u007f\u009b\u0085 é ✓", n: 1 };
    const json = jsonWithControlsEscaped(JSON.stringify(value));
    // (String.raw around non-ASCII text is avoided: Bun's transpiler writes it as \u escapes there.)
    expect(json).toBe(String.raw`{"text":"a\u001b[2J\u007f\u009b\u0085 ` + "é ✓" + `","n":1}`);
    expect(JSON.parse(json)).toEqual(value);
  });
});
