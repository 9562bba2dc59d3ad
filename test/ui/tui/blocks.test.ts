/** The transcript's blocks of the full-screen chat, rendered without a terminal (plain theme). */
import { describe, expect, test } from "bun:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { createTuiTheme } from "../../../src/ui/tui/theme.ts";
import { ToolBlock } from "../../../src/ui/tui/tool-block.ts";
import { LinesBlock } from "../../../src/ui/tui/lines-block.ts";
import { ThinkingBlock } from "../../../src/ui/tui/thinking-block.ts";
import { AnswerBlock, piecesOf } from "../../../src/ui/tui/answer-block.ts";
import { codeRows } from "../../../src/ui/tui/code-block.ts";

const theme = createTuiTheme(false);

describe("ToolBlock", () => {
  test("name and arguments on one line cut to the width, output, and no ✓ line when it printed", () => {
    const block = new ToolBlock(theme, "shell", { command: "ls -1 and a long tail of words that does not fit" });
    block.output("a.txt\nb.txt\n");
    block.result("a.txt\nb.txt", false);
    const lines = block.render(40);
    // pi-tui closes a cut line with a reset, coloured or not.
    expect(lines.map((l) => l.replaceAll("\x1b[0m", ""))).toEqual([
      "• $ ls -1 and a long tail of words that…",
      "  │ a.txt",
      "  │ b.txt",
    ]);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
  });

  test("a result without output: its first line with ✓; an error after output: its last line with ✗", () => {
    const quiet = new ToolBlock(theme, "read", {});
    quiet.result("first\nsecond", false);
    expect(quiet.render(60)).toEqual(["• read", "  ✓ first (+1 lines)"]);
    const failing = new ToolBlock(theme, "shell", { command: "false" });
    failing.output("boom\n");
    failing.result("boom\ncommand exited with code 1", true);
    expect(failing.render(60).at(-1)).toBe("  ✗ command exited with code 1");
  });

  test("long output shows its last 8 lines while collapsed, all of it expanded, with the arguments in full", () => {
    const block = new ToolBlock(theme, "shell", { command: "seq 12" });
    block.output(Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const collapsed = block.render(60);
    expect(collapsed[1]).toBe("  │ … 4 earlier lines (Ctrl-O shows them)");
    expect(collapsed.slice(2)).toEqual(Array.from({ length: 8 }, (_, i) => `  │ line ${i + 5}`));
    block.expanded = true;
    const expanded = block.render(60);
    expect(expanded.slice(0, 4)).toEqual(["• shell", "    {", '      "command": "seq 12"', "    }"]);
    expect(expanded.filter((l) => l.startsWith("  │ line"))).toHaveLength(12);
  });

  test("control characters of arguments and output are shown, never sent to the terminal", () => {
    const block = new ToolBlock(theme, "shell", { command: "printf '\x1b]0;t\x07'" });
    block.output("\x1b[2Jcleared\n");
    const text = block.render(80).join("\n");
    expect(text).not.toContain("\x1b");
    expect(text).toContain("\\x1b[2Jcleared");
  });

  test("a subagent's calls nest under the call, two columns in", () => {
    const call = new ToolBlock(theme, "agent__reviewer", { prompt: "review" });
    const child = new ToolBlock(theme, "shell", { command: "ls" });
    child.result("ok", false);
    call.children.push(child);
    call.result("looks good", false);
    expect(call.render(60)).toEqual([
      '• agent__reviewer {"prompt":"review"}',
      "  • $ ls",
      "    ✓ ok",
      "  ✓ looks good",
    ]);
  });
});

describe("code blocks copy clean", () => {
  test("no gutter; a line wider than the screen goes on in rows marked ↩ in the last column; the answer's lines carry no trailing blanks", () => {
    const block = new AnswerBlock(theme);
    block.append("Run:\n\n```sh\necho one two three four five six\nls\n```\n\nDone.");
    expect(block.render(20)).toEqual([
      "Run:",
      "",
      "┌── sh",
      "echo one two three ↩",
      "four five six",
      "ls",
      "└──",
      "",
      "Done.",
    ]);
  });

  test("a block still streaming is drawn up to where it is; ~~~ fences too; a longer fence closes only with as many marks", () => {
    const block = new AnswerBlock(theme);
    block.append("~~~\nstill");
    expect(block.render(40)).toEqual(["┌──", "still", "└──"]);
    expect(piecesOf("````md\n```\ninner\n```\n````\nafter")).toEqual([
      { kind: "code", lang: "md", code: "```\ninner\n```" },
      { kind: "markdown", text: "after" },
    ]);
    expect(codeRows("ab漢字cd", 4)).toEqual(["ab漢", "字cd"]);
  });
});

describe("LinesBlock, ThinkingBlock, AnswerBlock", () => {
  test("a paragraph wraps between words at each width, the prefix on its first line", () => {
    const block = new LinesBlock("one two three four five", "> ", "  ");
    expect(block.render(14)).toEqual(["> one two", "  three four", "  five"]);
    expect(block.render(40)).toEqual(["> one two three four five"]);
  });

  test("thinking collapses to its word count, and shows in full when expanded", () => {
    const block = new ThinkingBlock(theme, false);
    block.append("I should list ");
    block.append("the files.");
    expect(block.render(60)).toEqual(["✻ thinking… 5 words"]);
    block.expanded = true;
    expect(block.render(60)).toEqual(["✻ thinking", "  ┊ I should list the files."]);
  });

  test("the answer is markdown: heading marks gone, code framed, escapes shown", () => {
    const block = new AnswerBlock(theme);
    block.append("# Title\n\nSome `code` and\n\n```js\nlet x = 1;\n```\n");
    block.append("\x1b[31mred\n");
    const lines = block.render(40).map((l) => l.trimEnd());
    expect(lines).toContain("Title");
    expect(lines).toContain("┌── js");
    // No gutter: what is copied from the terminal is the code itself.
    expect(lines).toContain("let x = 1;");
    expect(lines).toContain("└──");
    expect(lines.join("\n")).toContain("\\x1b[31mred");
    expect(lines.join("\n")).not.toContain("\x1b");
  });
});
