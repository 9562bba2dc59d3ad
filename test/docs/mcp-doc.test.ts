/** docs/mcp.md's examples load as written. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAgent } from "../../src/agents/index.ts";
import { parseConfig } from "../../src/config/index.ts";
import { splitToolNames } from "../../src/mcp/index.ts";

const PAGE = readFileSync(resolve(import.meta.dir, "../../docs/mcp.md"), "utf8");
const blocks = (lang: string) =>
  [...PAGE.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!.replace(/^ {3}/gm, ""));

describe("docs/mcp.md", () => {
  test("the worked example's config declares both servers, ${ENV} expanded", () => {
    const config = parseConfig(blocks("yaml")[0]!, {
      path: "/h/.rienda/config.yaml",
      env: { OPENAI_API_KEY: "k", HOME: "/h", SEARCH_TOKEN: "tok" },
      home: "/h",
    });
    expect(config.mcpServers.get("files")).toMatchObject({
      transport: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/h/notes"],
      startupTimeoutMs: 60000,
    });
    expect(config.mcpServers.get("search")).toMatchObject({
      transport: "http",
      url: "https://search.example.com/mcp",
      headers: { Authorization: "Bearer tok" },
    });
  });

  test("the worked example's agent names one server's tools one by one and the other's all at once", () => {
    const agent = parseAgent("notes", blocks("markdown")[0]!, "/h/.rienda/agents/notes.md");
    expect(agent.tools).toEqual(["files__read_text_file", "files__list_directory", "search__*"]);
    expect(splitToolNames(agent.tools, new Set(["files", "search"]), "/c")).toEqual({
      userTools: [],
      servers: ["files", "search"],
    });
  });

  test("the config that uses a served HTTP server sends the token of RIENDA_MCP_TOKEN", () => {
    const block = blocks("yaml").find((b) => b.includes("RIENDA_MCP_TOKEN"))!;
    const provider = "providers:\n  openai: { preset: openai, api_key: k, models: { gpt-4o: {} } }\n";
    const config = parseConfig(provider + block, {
      path: "/h/.rienda/config.yaml",
      env: { RIENDA_MCP_TOKEN: "tok" },
      home: "/h",
    });
    expect(config.mcpServers.get("mine")).toMatchObject({
      transport: "http",
      url: "http://127.0.0.1:8931/mcp",
      headers: { Authorization: "Bearer tok" },
    });
  });

  test("the client configuration for rienda mcp serve is valid JSON naming the command", () => {
    const json = JSON.parse(blocks("json")[0]!) as { mcpServers: { rienda: { command: string; args: string[] } } };
    expect(json.mcpServers.rienda).toEqual({ command: "rienda", args: ["mcp", "serve", "--tools", "word-count"] });
  });
});
