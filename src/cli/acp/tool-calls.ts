/**
 * How a Rienda tool call looks to an editor: its title, its kind (the
 * editor's icon), and the files it names (the editor's "follow along").
 * Rienda's tools are the user's own, so all of this is read from the tool's
 * name and arguments by convention (docs/acp.md, "Tool calls").
 */
import { isAbsolute, resolve } from "node:path";
import type { SessionUpdate, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

/** The `tool_call` update that opens a call, live or replayed: running, with what it runs with. */
export function toolCallStarted(toolCallId: string, name: string, args: unknown, workdir: string): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId,
    title: toolTitle(name, args),
    kind: toolKind(name),
    status: "in_progress",
    locations: toolLocations(args, workdir),
    rawInput: args,
  };
}

/** Name patterns, first match wins: the kind an editor shows for a tool. */
const KINDS: ReadonlyArray<[RegExp, ToolKind]> = [
  [/^(shell|bash|exec|run|terminal|command)/, "execute"],
  [/(delete|remove|^rm$|unlink)/, "delete"],
  [/(move|rename|^mv$)/, "move"],
  [/(write|edit|patch|replace|create|apply|insert|append)/, "edit"],
  [/(grep|search|find|glob|^ls$|list)/, "search"],
  [/(read|cat|view|open|show)/, "read"],
  [/(fetch|http|web|url|download|curl)/, "fetch"],
  [/(think|plan|todo)/, "think"],
];

/** The kind an editor shows for tool `name` (a subagent's or an MCP server's tool by the part after `__`). */
export function toolKind(name: string): ToolKind {
  const bare = name.includes("__") ? name.slice(name.lastIndexOf("__") + 2) : name;
  const lower = bare.toLowerCase();
  return KINDS.find(([pattern]) => pattern.test(lower))?.[1] ?? "other";
}

/** The argument names that hold a path, by convention. */
const PATH_KEYS = [
  "path",
  "file",
  "file_path",
  "filePath",
  "filename",
  "target",
  "source",
  "destination",
  "dir",
  "directory",
];
const PATHS_KEYS = ["paths", "files"];

/** The absolute paths a call's arguments name (relative ones against the workspace), at most 20. */
export function toolLocations(args: unknown, workdir: string): ToolCallLocation[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return [];
  const record = args as Record<string, unknown>;
  const found: string[] = [];
  for (const key of PATH_KEYS) if (typeof record[key] === "string") found.push(record[key]);
  for (const key of PATHS_KEYS) {
    const list = record[key];
    if (Array.isArray(list)) for (const item of list) if (typeof item === "string") found.push(item);
  }
  const line =
    typeof record.line === "number" && Number.isInteger(record.line) && record.line > 0 ? record.line : undefined;
  const paths = [
    ...new Set(
      found
        .filter((path) => path.trim() !== "" && !path.includes("\0"))
        .map((path) => (isAbsolute(path) ? path : resolve(workdir, path))),
    ),
  ];
  return paths.slice(0, 20).map((path) => (line !== undefined && paths.length === 1 ? { path, line } : { path }));
}

/** A one-line title: the shell's command, else the tool's name with its first string argument. */
export function toolTitle(name: string, args: unknown): string {
  const record =
    typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  if (typeof record.command === "string") return oneLine(record.command);
  const first = Object.values(record).find(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  return first === undefined ? name : `${name}: ${oneLine(first)}`;
}

/** The first line of `text`, at most 120 characters. */
function oneLine(text: string): string {
  const lines = text.trim().split("\n");
  const first = lines[0]!;
  const cut = first.length > 120 ? `${first.slice(0, 119)}…` : first;
  return lines.length > 1 && cut === first ? `${cut} …` : cut;
}
