import { describe, expect, test } from "bun:test";
import { parseAgent } from "../../src/agents/index.ts";
import { RiendaError } from "../../src/errors.ts";
import { mcpToolName, resolveToolNames, splitToolNames } from "../../src/mcp/index.ts";
import { resultText } from "../../src/mcp/result-text.ts";
import type { Tool } from "../../src/tools/index.ts";

const tool = (name: string): Tool => ({
  name,
  description: "",
  parameters: {},
  source: "x",
  builtIn: false,
  execute: async () => ({ text: "", isError: false }),
});

describe("MCP tool names", () => {
  test("server__tool, characters outside [A-Za-z0-9_-] replaced, cut to 64", () => {
    expect(mcpToolName("files", "read_file")).toBe("files__read_file");
    expect(mcpToolName("files", "read.file/v2:x ü")).toBe("files__read_file_v2_x__");
    expect(mcpToolName("s", "t".repeat(100))).toBe(`s__${"t".repeat(61)}`);
    expect(mcpToolName("s", "t".repeat(100)).length).toBe(64);
  });

  test("agents may write server__* in tools, not in hooks", () => {
    const agent = parseAgent(
      "a",
      "---\ndescription: d\nmodel: p/m\ntools: [files__*, files__read_file]\n---\n",
      "/a.md",
    );
    expect(agent.tools).toEqual(["files__*", "files__read_file"]);
    expect(() => parseAgent("a", "---\ndescription: d\nmodel: p/m\nhooks: [files__*]\n---\n", "/a.md")).toThrow(
      '"files__*" is not a valid hook name',
    );
    expect(() => parseAgent("a", "---\ndescription: d\nmodel: p/m\ntools: [__*]\n---\n", "/a.md")).toThrow(
      '"__*" is not a valid tool name',
    );
  });

  test("entries whose prefix is a configured server are MCP tools; x__* of an unknown server is refused", () => {
    const configured = new Set(["files", "web"]);
    expect(splitToolNames(["shell", "files__read", "web__*", "my__tool", "files__*"], configured, "/c.yaml")).toEqual({
      userTools: ["shell", "my__tool"],
      servers: ["files", "web"],
    });
    expect(() => splitToolNames(["nope__*"], configured, "/c.yaml")).toThrow(
      'unknown MCP server "nope" in "nope__*" (MCP servers in /c.yaml: files, web)',
    );
    expect(() => splitToolNames(["nope__*"], new Set(), "/c.yaml")).toThrow("/c.yaml declares no mcp_servers");
  });

  test("resolution keeps the agent's order, expands server__* in place and drops duplicates", () => {
    const mcp: Record<string, Tool[]> = { files: [tool("files__a"), tool("files__b")] };
    const names = ["shell", "files__b", "files__*", "other"];
    const { tools, missing } = resolveToolNames(
      names,
      new Set(["files"]),
      (n) => tool(n),
      (s) => mcp[s] ?? [],
    );
    expect(tools.map((t) => t.name)).toEqual(["shell", "files__b", "files__a", "other"]);
    expect(missing).toEqual([]);
    const bad = resolveToolNames(
      ["files__c", "x", "files__d"],
      new Set(["files"]),
      (n) => new RiendaError("extension", `no ${n}`),
      (s) => mcp[s] ?? [],
    );
    expect(bad.missing.map((e) => e.message)).toEqual([
      'unknown tool "files__c": MCP server "files" does not list it (its tools: files__a, files__b)',
      "no x",
      'unknown tool "files__d": MCP server "files" does not list it (its tools: files__a, files__b)',
    ]);
  });
});

describe("MCP results as text", () => {
  test("text blocks one per line; other content described; isError kept", () => {
    expect(
      resultText({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toEqual({ text: "a\nb", isError: false });
    expect(resultText({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({
      text: "bad",
      isError: true,
    });
    expect(
      resultText({
        content: [
          { type: "audio", mimeType: "audio/wav", data: "AAAA" },
          { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
          { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: "AAAAAA==" } },
          { type: "something-new" },
        ],
      }).text,
    ).toBe(
      "[audio: audio/wav, 3 bytes, not shown]\n[resource file:///a.txt]\ninside\n[resource file:///b.bin: application/zip, 4 bytes, not shown]\n[something-new content, not shown]",
    );
  });

  test("only structured content: its JSON; the old toolResult form: its value", () => {
    expect(resultText({ content: [], structuredContent: { t: 1 } }).text).toBe('{"t":1}');
    expect(resultText({ toolResult: "old" }).text).toBe("old");
    expect(resultText({}).text).toBe("");
  });
});
