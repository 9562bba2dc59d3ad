import { describe, expect, test } from "bun:test";
import {
  elapsedText,
  firstLineOf,
  lastLineOf,
  shortArguments,
  toolCallParts,
  turnSummaryText,
  usageText,
  wordCount,
} from "../../../src/ui/chat/format-lines.ts";

describe("one-line texts of the chat", () => {
  test("tool arguments are compact JSON, the raw text when they were not JSON, nothing when empty", () => {
    expect(shortArguments({ command: "ls -la" })).toBe('{"command":"ls -la"}');
    expect(shortArguments("{not json")).toBe("{not json");
    expect(shortArguments({})).toBe("");
  });

  test("a tool call line is cut to the terminal width", () => {
    const parts = toolCallParts("shell", { command: "x".repeat(200) }, 40);
    expect(2 + parts.name.length + 1 + parts.args.length).toBeLessThanOrEqual(40);
    expect(parts.args.endsWith("…")).toBe(true);
    expect(toolCallParts("shell", { command: "ls" }, 40)).toEqual({ name: "shell", args: '{"command":"ls"}' });
  });

  test("durations read naturally", () => {
    expect(elapsedText(420)).toBe("0.4s");
    expect(elapsedText(12_340)).toBe("12.3s");
    expect(elapsedText(125_000)).toBe("2m05s");
    expect(elapsedText(3_720_000)).toBe("1h02m");
  });

  test("usage shows input and output tokens, and cache and reasoning counts when reported", () => {
    expect(usageText({ inputTokens: 1204, outputTokens: 52 })).toBe("1,204 in / 52 out tokens");
    expect(usageText({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 8, reasoningTokens: 1 })).toBe(
      "10 in / 2 out tokens (8 cached, 1 reasoning)",
    );
    expect(usageText({ inputTokens: 0, outputTokens: 0 })).toBe("no tokens");
    expect(turnSummaryText(1500, { inputTokens: 3, outputTokens: 4 })).toBe("─ 1.5s · 3 in / 4 out tokens");
    expect(turnSummaryText(1500, { inputTokens: 3, outputTokens: 4 }, 0.015075)).toBe(
      "─ 1.5s · 3 in / 4 out tokens · $0.015",
    );
  });

  test("first and last lines skip blank lines", () => {
    expect(firstLineOf("\n  one\ntwo\nthree\n")).toBe("one (+2 lines)");
    expect(firstLineOf("only")).toBe("only");
    expect(lastLineOf("out\n\ncommand exited with code 1\n")).toBe("command exited with code 1");
    expect(firstLineOf("  \n")).toBe("");
  });

  test("words are counted for the collapsed thinking line", () => {
    expect(wordCount("  let me think  about it ")).toBe(5);
    expect(wordCount("")).toBe(0);
  });
});
