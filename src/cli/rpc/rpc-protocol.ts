/**
 * The wire of `rienda rpc` (docs/rpc.md, schema/rpc.schema.json): one JSON
 * object per line each way. A line from the client is read into a command
 * or into the error response that names what is wrong with it: a line
 * that is not JSON, a command without `type` or of an unknown type, a field
 * missing or of the wrong type. Reading never throws.
 */
import { isRecord } from "../../values.ts";

/** Version of the rpc protocol, in the first line the process writes. */
export const RPC_VERSION = 1;

/** A command's id as the client gave it (echoed in its response and in the events it caused). */
export type CommandId = string | number;

/** Every command, as read. */
/** An image sent inline with a prompt (base64), as the client gave it; its bytes are checked when it is attached. */
export interface InlineImage {
  data: string;
  name: string;
}

export type RpcCommand =
  | { type: "prompt" | "follow_up" | "steer"; id: CommandId; text: string; files: string[]; images: InlineImage[] }
  | { type: "get_messages"; id: CommandId }
  | { type: "switch_session"; id: CommandId; sessionId: string }
  | { type: "get_models"; id: CommandId }
  | { type: "get_stats"; id: CommandId }
  | { type: "abort"; id: CommandId }
  | { type: "confirm_answer"; id: CommandId; confirmId: string; answer: boolean }
  | { type: "set_model"; id: CommandId; model: string }
  | { type: "set_agent"; id: CommandId; agent: string }
  | { type: "set_thinking"; id: CommandId; level: string }
  | { type: "list_models"; id: CommandId }
  | { type: "fork"; id: CommandId; entryId?: string }
  | { type: "compact"; id: CommandId }
  | { type: "new_session"; id: CommandId }
  | { type: "get_state"; id: CommandId }
  | { type: "list_sessions"; id: CommandId }
  | { type: "shutdown"; id: CommandId };

/** Why a command failed, as `error.code` says it. */
export type RpcErrorCode =
  | "parse_error"
  | "line_too_long"
  | "invalid_command"
  | "unknown_command"
  | "invalid_field"
  | "busy"
  | "not_running"
  | "unknown_confirm"
  | "duplicate_id"
  | "refused";

/** A line that is not a command: the error response to send (id null when none could be read). */
export interface RpcRefusal {
  id: CommandId | null;
  command: string | null;
  code: RpcErrorCode;
  message: string;
}

const COMMANDS = [
  "prompt",
  "follow_up",
  "steer",
  "get_messages",
  "switch_session",
  "get_models",
  "get_stats",
  "abort",
  "confirm_answer",
  "set_model",
  "set_agent",
  "set_thinking",
  "list_models",
  "fork",
  "compact",
  "new_session",
  "get_state",
  "list_sessions",
  "shutdown",
] as const;

/** The fields each command takes besides `id` and `type`, with their JSON types; `?` marks an optional one. */
const FIELDS: Record<(typeof COMMANDS)[number], Record<string, string>> = {
  prompt: { text: "string", "files?": "string[]", "images?": "image[]" },
  follow_up: { text: "string", "files?": "string[]", "images?": "image[]" },
  steer: { text: "string", "files?": "string[]", "images?": "image[]" },
  get_messages: {},
  switch_session: { session_id: "string" },
  get_models: {},
  get_stats: {},
  abort: {},
  confirm_answer: { confirm_id: "string", answer: "boolean" },
  set_model: { model: "string" },
  set_agent: { agent: "string" },
  set_thinking: { level: "string" },
  list_models: {},
  fork: { "entry_id?": "string" },
  compact: {},
  new_session: {},
  get_state: {},
  list_sessions: {},
  shutdown: {},
};

/** Reads one line; a command, or the refusal to answer it with. */
export function readCommand(line: string): RpcCommand | RpcRefusal {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      id: null,
      command: null,
      code: "parse_error",
      message: `the line is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!isRecord(value))
    return { id: null, command: null, code: "invalid_command", message: "a command is a JSON object with id and type" };
  const type = typeof value.type === "string" ? value.type : null;
  const idProblem = problemOfId(value.id);
  if (idProblem) return { id: null, command: type, code: "invalid_field", message: idProblem };
  const id = value.id as CommandId;
  if (type === null) {
    const message =
      value.type === undefined
        ? 'field "type" is required: the command\'s name'
        : `field "type" must be a string (the command's name), not ${describeJson(value.type)}`;
    return { id, command: null, code: "invalid_field", message };
  }
  if (!(COMMANDS as readonly string[]).includes(type)) {
    return {
      id,
      command: type,
      code: "unknown_command",
      message: `unknown command "${type}" (commands: ${COMMANDS.join(", ")})`,
    };
  }
  const command = type as (typeof COMMANDS)[number];
  const fields = FIELDS[command];
  const allowed = new Set(["id", "type", ...Object.keys(fields).map((f) => f.replace(/\?$/, ""))]);
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) return { id, command, code: "invalid_field", message: `${command} takes no field "${key}"` };
  }
  for (const [spec, kind] of Object.entries(fields)) {
    const name = spec.replace(/\?$/, "");
    const given = value[name];
    if (given === undefined) {
      if (spec.endsWith("?")) continue;
      return { id, command, code: "invalid_field", message: `${command} needs field "${name}" (${kind})` };
    }
    if (!hasKind(given, kind))
      return {
        id,
        command,
        code: "invalid_field",
        message: `field "${name}" of ${command} must be ${KIND_TEXT[kind] ?? `a ${kind}`}`,
      };
  }
  switch (command) {
    case "prompt":
    case "follow_up":
    case "steer":
      if ((value.text as string).trim() === "")
        return {
          id,
          command,
          code: "invalid_field",
          message: `field "text" of ${command} is empty: a prompt needs words`,
        };
      return {
        type: command,
        id,
        text: value.text as string,
        files: (value.files as string[] | undefined) ?? [],
        images: inlineImages(value.images),
      };
    case "switch_session":
      return { type: command, id, sessionId: value.session_id as string };
    case "confirm_answer":
      return { type: command, id, confirmId: value.confirm_id as string, answer: value.answer as boolean };
    case "set_model":
      return { type: command, id, model: value.model as string };
    case "set_agent":
      return { type: command, id, agent: value.agent as string };
    case "set_thinking":
      return { type: command, id, level: value.level as string };
    case "fork":
      return { type: command, id, ...(typeof value.entry_id === "string" ? { entryId: value.entry_id } : {}) };
    default:
      return { type: command, id };
  }
}

/** How a field's kind is named in messages, where `a <kind>` does not say it. */
const KIND_TEXT: Record<string, string> = {
  "string[]": "a list of strings",
  "image[]": 'a list of images: {"data": base64 text, "name"?: string}',
};

/** Whether a given field has the kind its spec names. */
function hasKind(given: unknown, kind: string): boolean {
  if (kind === "string[]") return Array.isArray(given) && given.every((v) => typeof v === "string");
  if (kind === "image[]") return Array.isArray(given) && given.every(isInlineImage);
  return typeof given === kind;
}

function isInlineImage(value: unknown): boolean {
  if (!isRecord(value) || typeof value.data !== "string") return false;
  if (value.name !== undefined && typeof value.name !== "string") return false;
  return Object.keys(value).every((key) => key === "data" || key === "name");
}

/** The images of a prompt, each named (`image-1`, ... when the client gave no name). */
function inlineImages(value: unknown): InlineImage[] {
  if (!Array.isArray(value)) return [];
  return value.map((image: { data: string; name?: string }, i) => ({
    data: image.data,
    name: image.name ?? `image-${i + 1}`,
  }));
}

/**
 * Why `id` cannot identify a command: ids are strings or safe integers, so
 * that the id echoed back is the very value sent (a number beyond 2^53, or
 * `1e400`, would come back changed).
 */
function problemOfId(id: unknown): string | undefined {
  if (id === undefined) return 'field "id" is required: a string or a whole number';
  if (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id))) return undefined;
  if (typeof id === "number") {
    const why =
      Number.isInteger(id) || !Number.isFinite(id)
        ? "beyond the safe integers (±(2^53 - 1)), so it would not come back as sent"
        : "not a whole number";
    return `field "id" must be a string or a whole number within ±(2^53 - 1): this number is ${why}; send it as a string`;
  }
  return `field "id" must be a string or a whole number, not ${describeJson(id)}`;
}

/** "an object", "a list", "null", "a boolean": the JSON kind of a value, for messages. */
function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Whether `readCommand` gave a refusal. */
export function isRefusal(value: RpcCommand | RpcRefusal): value is RpcRefusal {
  return "code" in value;
}
