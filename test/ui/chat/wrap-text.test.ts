import { describe, expect, test } from "bun:test";
import { StreamWrapper, truncateToWidth, wrapText } from "../../../src/ui/chat/wrap-text.ts";

describe("wrapping text for the terminal", () => {
  test("breaks between words so no line is wider than the terminal", () => {
    const out = wrapText("the quick brown fox jumps over the lazy dog", 16);
    expect(out).toBe("the quick brown\nfox jumps over\nthe lazy dog\n");
    for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(16);
  });

  test("a word wider than the line is cut where the line ends", () => {
    expect(wrapText("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdefghij\nklmnopqrst\nuvwxyz\n");
  });

  test("every line carries the prefix, blank lines too", () => {
    expect(wrapText("one two three\n\nfour", 14, "  │ ")).toBe("  │ one two\n  │ three\n  │\n  │ four\n");
  });

  test("streamed pieces wrap as if the text came at once, and a word is written only once complete", () => {
    const wrapper = new StreamWrapper({ width: () => 16 });
    const written: string[] = [];
    for (const piece of ["the qu", "ick brown f", "ox jumps over the", " lazy dog"]) written.push(wrapper.push(piece));
    written.push(wrapper.end());
    expect(written.join("")).toBe("the quick brown\nfox jumps over\nthe lazy dog\n");
    expect(written[0]).toBe("the");
  });

  test("leading indentation is kept", () => {
    expect(wrapText("code:\n    indented line", 40)).toBe("code:\n    indented line\n");
  });

  test("escape sequences and control characters in the text are shown, not passed on; CRLF is one newline, a lone CR another", () => {
    expect(wrapText("\u001b[31mred\u001b[0m\r\nnext\u0007\u009b\rover", 40)).toBe(
      "\\x1b[31mred\\x1b[0m\nnext\\x07\\x9b\nover\n",
    );
  });

  test("a shown control character counts as the columns it takes", () => {
    expect(wrapText("abcd \u001b[2J", 10)).toBe("abcd\n\\x1b[2J\n");
  });

  test("truncation shows control characters and turns line breaks into spaces", () => {
    expect(truncateToWidth("a\u001b]0;t\u0007\nb", 40)).toBe("a\\x1b]0;t\\x07 b");
  });

  test("wide characters count as two columns", () => {
    expect(wrapText("日本語 日本語", 8)).toBe("日本語\n日本語\n");
  });

  test("paint is applied to the words, not to the prefix or the newlines", () => {
    expect(wrapText("a b", 20, "> ", (t) => `[${t}]`)).toBe("> [a] [b]\n");
  });

  test("truncation ends in an ellipsis and never exceeds the width", () => {
    expect(truncateToWidth("short", 10)).toBe("short");
    expect(truncateToWidth("a much longer line", 10)).toBe("a much lo…");
    expect(truncateToWidth("two\nlines", 20)).toBe("two lines");
  });
});
