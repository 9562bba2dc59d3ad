/** docs/chat.md's key table of the full-screen chat is the list /hotkeys shows. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { plainStyle } from "../../../src/ui/chat/index.ts";
import { keysText, TUI_KEYS } from "../../../src/ui/tui/keys.ts";

const DOC = join(import.meta.dir, "../../../docs/chat.md");

describe("the keys of the full-screen chat", () => {
  test('docs/chat.md\'s table under "### Keys" has the same rows, in the same order', () => {
    const text = readFileSync(DOC, "utf8");
    const section = text.slice(text.indexOf("### Keys\n"));
    const table = section.slice(
      section.indexOf("| key | does |"),
      section.indexOf("\n\n", section.indexOf("| key | does |")),
    );
    const rows = table
      .split("\n")
      .slice(2)
      .map((row) =>
        row
          .replace(/^\| /, "")
          .replace(/ \|$/, "")
          .split(" | ")
          .map((cell) => cell.replaceAll("`", "")),
      );
    expect(rows).toEqual(TUI_KEYS.map(([key, does]) => [key, does]));
  });

  test("/hotkeys: two columns, each description wrapped under itself", () => {
    const lines = keysText(plainStyle, 60).split("\n");
    expect(lines[0]).toBe("  Enter                   sends the message; while the agent");
    expect(lines[1]).toMatch(/^ {26}works, queues it/);
    expect(lines.every((line) => [...line].length <= 60)).toBe(true);
  });
});
