/**
 * What the model reads for an MCP tool result: text blocks as they are,
 * every other kind of content described in one line of text (the model
 * gets no images or audio through a tool result in Rienda).
 */
import type { ToolResult } from "../tools/index.ts";

/** The parts of `CallToolResult` Rienda reads; the rest is ignored. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** Servers of protocol 2024-10-07 and before answered `{ toolResult }`. */
  toolResult?: unknown;
}

/** The result text and error flag of one call. */
export function resultText(result: McpCallResult): ToolResult {
  const isError = result.isError === true;
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map(describeBlock).filter((p) => p !== "");
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  }
  return { text: parts.join("\n"), isError };
}

function describeBlock(block: unknown): string {
  if (block === null || typeof block !== "object") return "";
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? b.text : "";
    case "image":
    case "audio":
      return `[${b.type}: ${text(b.mimeType, "unknown type")}, ${base64Bytes(b.data)} bytes, not shown]`;
    case "resource_link":
      return `[resource link: ${text(b.uri, "?")}${b.name ? ` (${text(b.name, "")})` : ""}${b.mimeType ? `, ${text(b.mimeType, "")}` : ""}]`;
    case "resource": {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === "string") return `[resource ${text(r.uri, "?")}]\n${r.text}`;
      return `[resource ${text(r.uri, "?")}: ${text(r.mimeType, "binary")}, ${base64Bytes(r.blob)} bytes, not shown]`;
    }
    default:
      return `[${text(b.type, "unknown")} content, not shown]`;
  }
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

/** The decoded size of base64 text, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
