/** Reading rpc command lines: every bad line is a refusal naming what is wrong, never a throw. */
import { describe, expect, test } from "bun:test";
import { isRefusal, readCommand } from "../../../src/cli/rpc/rpc-protocol.ts";

describe("readCommand", () => {
  test("reads commands with their fields", () => {
    expect(readCommand('{"id":1,"type":"prompt","text":"hi","files":["a.txt"]}')).toEqual({
      type: "prompt",
      id: 1,
      text: "hi",
      files: ["a.txt"],
      images: [],
    });
    expect(readCommand('{"id":"x","type":"confirm_answer","confirm_id":"c","answer":false}')).toEqual({
      type: "confirm_answer",
      id: "x",
      confirmId: "c",
      answer: false,
    });
    expect(readCommand('{"id":2,"type":"fork","entry_id":"e"}')).toEqual({ type: "fork", id: 2, entryId: "e" });
    expect(readCommand('{"id":3,"type":"set_thinking","level":"high"}')).toEqual({
      type: "set_thinking",
      id: 3,
      level: "high",
    });
    expect(readCommand('{"id":4,"type":"list_models"}')).toEqual({ type: "list_models", id: 4 });
  });

  test.each([
    ["{", "parse_error"],
    ["3", "invalid_command"],
    ['{"type":"abort"}', "invalid_field"],
    ['{"id":true,"type":"abort"}', "invalid_field"],
    ['{"id":1,"type":"jump"}', "unknown_command"],
    ['{"id":1,"type":"prompt"}', "invalid_field"],
    ['{"id":1,"type":"prompt","text":"x","files":[1]}', "invalid_field"],
    ['{"id":1,"type":"abort","now":true}', "invalid_field"],
    ['{"id":1,"type":"set_thinking"}', "invalid_field"],
    ['{"id":1,"type":"set_thinking","level":2}', "invalid_field"],
  ])("%s is refused with %s", (line, code) => {
    const read = readCommand(line);
    expect(isRefusal(read)).toBe(true);
    expect(isRefusal(read) ? read.code : undefined).toBe(code as never);
  });
});
