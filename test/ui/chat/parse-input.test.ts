import { describe, expect, test } from "bun:test";
import { CHAT_COMMANDS, parseInput, suggestCommand } from "../../../src/ui/chat/parse-input.ts";

describe("parsing chat input", () => {
  test("blank input is empty", () => {
    expect(parseInput("   \n ")).toEqual({ kind: "empty" });
  });

  test("ordinary text is a message, kept as typed", () => {
    expect(parseInput("  fix the parser\nplease ")).toEqual({ kind: "message", text: "  fix the parser\nplease " });
  });

  test("every command of the issue is known", () => {
    for (const name of ["help", "new", "sessions", "resume", "agent", "model", "tools", "exit"]) {
      expect(CHAT_COMMANDS.some((c) => c.name === name)).toBe(true);
      expect(parseInput(`/${name}`)).toEqual({ kind: "command", name, argument: "" });
    }
  });

  test("a command takes the rest of the line as its argument", () => {
    expect(parseInput("/resume 01jq3v8m6w2k4x9c7b5pv3q2fm")).toEqual({
      kind: "command",
      name: "resume",
      argument: "01jq3v8m6w2k4x9c7b5pv3q2fm",
    });
    expect(parseInput("/model  local/llama3.1:8b ")).toEqual({
      kind: "command",
      name: "model",
      argument: "local/llama3.1:8b",
    });
    expect(parseInput("/agent planner")).toEqual({ kind: "command", name: "agent", argument: "planner" });
  });

  test("command names are case-insensitive and have aliases", () => {
    expect(parseInput("/HELP")).toEqual({ kind: "command", name: "help", argument: "" });
    expect(parseInput("/quit")).toEqual({ kind: "command", name: "exit", argument: "" });
  });

  test("an argument given to a command that takes none is a usage error", () => {
    expect(parseInput("/new now")).toEqual({ kind: "misused", name: "new", usage: "/new" });
  });

  test("an unknown command gets a suggestion when one is close", () => {
    expect(parseInput("/sesions")).toEqual({ kind: "unknown", name: "sesions", suggestion: "sessions" });
    expect(parseInput("/res")).toEqual({ kind: "unknown", name: "res", suggestion: "resume" });
    expect(parseInput("/frobnicate")).toEqual({ kind: "unknown", name: "frobnicate" });
  });

  test("a path or several lines starting with a slash are messages", () => {
    expect(parseInput("/etc/hosts has a typo")).toEqual({ kind: "message", text: "/etc/hosts has a typo" });
    expect(parseInput("/help\nthis is text")).toEqual({ kind: "message", text: "/help\nthis is text" });
  });

  test("suggestions use the canonical name", () => {
    expect(suggestCommand("qiut")).toBe("exit");
    expect(suggestCommand("tool")).toBe("tools");
  });
});
