/** Reads and validates a replay script (the YAML of scripted assistant turns). */
import { parse } from "yaml";
import { parseToolArguments } from "./parse-tool-arguments.ts";
import type { Usage } from "./types.ts";
import { isRecord } from "../values.ts";

/** One scripted assistant turn, validated. */
export interface ReplayTurn {
  text?: string;
  thinking?: string;
  toolCalls: Array<{ id?: string; name: string; arguments: unknown }>;
  usage?: Usage;
}

const TURN_KEYS = new Set(["text", "thinking", "tool_calls", "usage"]);
const CALL_KEYS = new Set(["id", "name", "arguments"]);
const USAGE_KEYS = new Set(["input_tokens", "output_tokens"]);

/**
 * Parses a replay script: a YAML list of assistant turns. A turn is a
 * string (its text) or a mapping with `text`, `thinking`, `tool_calls`
 * (each `name`, optional `id`, optional `arguments`: a mapping, or a string
 * read as the JSON text a model would stream) and `usage`. Strict: any
 * problem is returned as a message naming the file and the turn.
 */
export function parseReplayScript(
  path: string,
  source: string,
): { ok: true; turns: ReplayTurn[] } | { ok: false; message: string } {
  let document: unknown;
  try {
    document = parse(source);
  } catch (error) {
    return {
      ok: false,
      message: `${path}: invalid YAML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  }
  if (!Array.isArray(document))
    return { ok: false, message: `${path}: a replay script must be a YAML list of assistant turns` };
  const turns: ReplayTurn[] = [];
  for (const [index, raw] of document.entries()) {
    const where = `${path}: turn ${index + 1}`;
    const turn = parseTurn(raw, where);
    if (typeof turn === "string") return { ok: false, message: turn };
    turns.push(turn);
  }
  return { ok: true, turns };
}

function parseTurn(raw: unknown, where: string): ReplayTurn | string {
  if (typeof raw === "string") return raw === "" ? `${where}: is empty` : { text: raw, toolCalls: [] };
  if (!isRecord(raw)) return `${where}: must be a string or a mapping with text, thinking, tool_calls`;
  for (const key of Object.keys(raw))
    if (!TURN_KEYS.has(key)) return `${where}: unknown key "${key}" (expected text, thinking, tool_calls, usage)`;
  const turn: ReplayTurn = { toolCalls: [] };
  for (const key of ["text", "thinking"] as const) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return `${where}: ${key} must be a string`;
    turn[key] = value;
  }
  if (raw.tool_calls !== undefined && raw.tool_calls !== null) {
    if (!Array.isArray(raw.tool_calls)) return `${where}: tool_calls must be a list`;
    for (const [index, call] of raw.tool_calls.entries()) {
      const at = `${where}: tool_calls[${index}]`;
      if (!isRecord(call)) return `${at}: must be a mapping with name and arguments`;
      for (const key of Object.keys(call))
        if (!CALL_KEYS.has(key)) return `${at}: unknown key "${key}" (expected id, name, arguments)`;
      if (typeof call.name !== "string" || call.name === "") return `${at}: name must be a non-empty string`;
      if (call.id !== undefined && (typeof call.id !== "string" || call.id === ""))
        return `${at}: id must be a non-empty string`;
      const args =
        call.arguments === undefined || call.arguments === null
          ? {}
          : typeof call.arguments === "string"
            ? parseToolArguments(call.arguments)
            : call.arguments;
      turn.toolCalls.push(
        call.id === undefined
          ? { name: call.name, arguments: args }
          : { id: call.id as string, name: call.name, arguments: args },
      );
    }
  }
  if (raw.usage !== undefined && raw.usage !== null) {
    const usage = raw.usage;
    if (!isRecord(usage)) return `${where}: usage must be a mapping with input_tokens and output_tokens`;
    for (const key of Object.keys(usage))
      if (!USAGE_KEYS.has(key)) return `${where}: usage: unknown key "${key}" (expected input_tokens, output_tokens)`;
    const input = usage.input_tokens ?? 0;
    const output = usage.output_tokens ?? 0;
    if (!isCount(input) || !isCount(output)) return `${where}: usage counts must be non-negative integers`;
    turn.usage = { inputTokens: input, outputTokens: output };
  }
  if ((turn.text ?? "").trim() === "" && turn.toolCalls.length === 0)
    return `${where}: needs text or tool_calls (an empty answer is never a valid turn)`;
  return turn;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
