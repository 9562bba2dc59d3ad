/** A started server's tools as Rienda `Tool`s, named `server__tool`. */
import type { Tool } from "../tools/index.ts";
import type { McpConnection } from "./connection.ts";
import { mcpToolName } from "./tool-name.ts";

/** The draft Rienda's argument validator knows; other `$schema` values are left out of the check. */
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The tools of `connection`, in the server's order, and a notice for each name that collides. */
export function toolsOfConnection(connection: McpConnection): { tools: Tool[]; notices: string[] } {
  const tools: Tool[] = [];
  const notices = connection.leftOut.map((reason) => `MCP server "${connection.name}": ${reason}`);
  const taken = new Map<string, string>();
  for (const info of connection.tools) {
    const name = mcpToolName(connection.name, info.name);
    const earlier = taken.get(name);
    if (earlier !== undefined) {
      notices.push(
        `MCP server "${connection.name}": tool "${info.name}" is left out: its name ${name} is already used by "${earlier}"`,
      );
      continue;
    }
    taken.set(name, info.name);
    // A server that quotes a secret in a description or schema must not hand it to the model or to `tool list`.
    const parameters = hideInSchema(info.inputSchema, (text) => connection.hide(text));
    const tool: Tool = {
      name,
      description: connection.hide(info.description),
      parameters,
      source: `MCP server "${connection.name}"`,
      builtIn: false,
      execute: (args, context) => connection.call(info.name, args, context),
    };
    const schema = parameters.$schema;
    if (schema !== undefined && !(typeof schema === "string" && DRAFT_07.test(schema))) {
      // A 2020-12 schema checked as draft-07: same keywords for what tools use; the server has the last word.
      const { $schema: _, ...rest } = parameters;
      tool.argumentSchema = rest;
    }
    tools.push(tool);
  }
  return { tools, notices };
}

/** `schema` with `hide` applied to every string in it (keys included); the same object when nothing changes. */
function hideInSchema(schema: Record<string, unknown>, hide: (text: string) => string): Record<string, unknown> {
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      const hidden = hide(node);
      if (hidden !== node) changed = true;
      return hidden;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node))
        Object.defineProperty(out, walk(key) as string, {
          value: walk(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    return node;
  };
  const result = walk(schema) as Record<string, unknown>;
  return changed ? result : schema;
}
