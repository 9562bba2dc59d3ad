/** A started server's tools as Rienda `Tool`s, named `server__tool`. */
import type { Tool } from "../tools/index.ts";
import type { McpConnection } from "./connection.ts";
import { mcpToolName } from "./tool-name.ts";

/** The draft Rienda's argument validator knows; other `$schema` values are left out of the check. */
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The tools of `connection`, in the server's order, and a notice for each name that collides. */
export function toolsOfConnection(connection: McpConnection): { tools: Tool[]; notices: string[] } {
  const tools: Tool[] = [];
  const notices: string[] = [];
  const taken = new Map<string, string>();
  for (const info of connection.tools) {
    const name = mcpToolName(connection.name, info.name);
    const earlier = taken.get(name);
    if (earlier !== undefined) {
      notices.push(`MCP server "${connection.name}": tool "${info.name}" is left out: its name ${name} is already used by "${earlier}"`);
      continue;
    }
    taken.set(name, info.name);
    const tool: Tool = {
      name,
      description: info.description,
      parameters: info.inputSchema,
      source: `MCP server "${connection.name}"`,
      builtIn: false,
      execute: (args, context) => connection.call(info.name, args, context),
    };
    const schema = info.inputSchema.$schema;
    if (schema !== undefined && !(typeof schema === "string" && DRAFT_07.test(schema))) {
      // A 2020-12 schema checked as draft-07: same keywords for what tools use; the server has the last word.
      const { $schema: _, ...rest } = info.inputSchema;
      tool.argumentSchema = rest;
    }
    tools.push(tool);
  }
  return { tools, notices };
}
