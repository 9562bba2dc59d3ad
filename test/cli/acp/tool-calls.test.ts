import { describe, expect, test } from "bun:test";
import { toolKind, toolLocations, toolTitle } from "../../../src/cli/acp/tool-calls.ts";

describe("tool calls as an editor shows them", () => {
  test("the kind comes from the name, an MCP tool's by the part after __", () => {
    expect(toolKind("shell")).toBe("execute");
    expect(toolKind("read_file")).toBe("read");
    expect(toolKind("write_file")).toBe("edit");
    expect(toolKind("delete_branch")).toBe("delete");
    expect(toolKind("rename")).toBe("move");
    expect(toolKind("grep")).toBe("search");
    expect(toolKind("web_fetch")).toBe("fetch");
    expect(toolKind("fs__read_text_file")).toBe("read");
    expect(toolKind("publish")).toBe("other");
  });

  test("locations: the path arguments made absolute, a line only for one path, junk left out", () => {
    expect(toolLocations({ path: "src/a.ts", line: 12 }, "/w")).toEqual([{ path: "/w/src/a.ts", line: 12 }]);
    expect(toolLocations({ paths: ["a", "/abs/b", "a"], line: 3 }, "/w")).toEqual([
      { path: "/w/a" },
      { path: "/abs/b" },
    ]);
    expect(toolLocations({ file: "", command: "ls" }, "/w")).toEqual([]);
    expect(toolLocations("not an object", "/w")).toEqual([]);
    expect(toolLocations({ files: Array.from({ length: 30 }, (_, i) => `f${i}`) }, "/w")).toHaveLength(20);
  });

  test("the title: the command, else the name with its first text argument, on one line", () => {
    expect(toolTitle("shell", { command: "npm test\nnpm run lint" })).toBe("npm test …");
    expect(toolTitle("publish", { path: "notes.txt" })).toBe("publish: notes.txt");
    expect(toolTitle("now", {})).toBe("now");
    expect(toolTitle("say", { text: "x".repeat(200) })).toHaveLength("say: ".length + 120);
  });
});
