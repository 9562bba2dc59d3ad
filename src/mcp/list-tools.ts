/**
 * Reading an MCP server's `tools/list`: every page, each listed tool checked
 * on its own so that one unusable tool is left out with a reason rather
 * than failing the server.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ClientSdk } from "./sdk.ts";

/** A tool as the server lists it. */
export interface McpToolInfo {
  /** The server's own name for it. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Every page of `tools/list`. Each tool is checked here rather than by the
 * SDK, whose check of the whole answer would fail the server for one bad
 * tool (with a dump of schema paths): a tool Rienda cannot offer is left out,
 * with a reason.
 */
export async function listAllTools(
  client: Client,
  anyResult: ResultSchema,
  timeoutMs: number,
): Promise<{ tools: McpToolInfo[]; leftOut: string[] }> {
  const tools: McpToolInfo[] = [];
  const leftOut: string[] = [];
  let cursor: string | undefined;
  // A server that keeps handing out cursors is cut off rather than followed forever.
  for (let page = 0; page < 100; page++) {
    const answer: Record<string, unknown> = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      anyResult,
      { timeout: timeoutMs },
    );
    if (!Array.isArray(answer.tools)) throw new Error('its answer to "tools/list" has no list of tools');
    for (const listed of answer.tools) {
      const tool = readTool(listed);
      if (typeof tool === "string") leftOut.push(tool);
      else tools.push(tool);
    }
    cursor = typeof answer.nextCursor === "string" && answer.nextCursor !== "" ? answer.nextCursor : undefined;
    if (!cursor) break;
  }
  return { tools, leftOut };
}

/** The SDK's schema of any result (Rienda reads the fields itself). */
export type ResultSchema = ClientSdk["types"]["ResultSchema"];

/** A listed tool, or why it is left out. */
function readTool(value: unknown): McpToolInfo | string {
  const tool = (value !== null && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const name = tool.name;
  if (typeof name !== "string" || name === "") return "a tool without a name is left out";
  const schema = tool.inputSchema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    return `tool "${name}" is left out: it has no input schema (inputSchema)`;
  if ((schema as { type?: unknown }).type !== "object")
    return `tool "${name}" is left out: its input schema is not of type "object" (a tool's arguments are an object)`;
  const text = (field: unknown) => (typeof field === "string" ? field : undefined);
  return {
    name,
    description: text(tool.description) ?? text(tool.title) ?? "",
    inputSchema: schema as Record<string, unknown>,
  };
}
