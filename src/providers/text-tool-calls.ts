/**
 * Tool calls a model wrote as text (`tool_calls_in_text`, new): what a
 * local server sends as `content` when it was started without tool-call
 * parsing or the model's template does not map its calls. Reads the three
 * common forms:
 * - `hermes` (Hermes, Qwen): `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, once per call;
 * - `mistral`: `[TOOL_CALLS][{"name": …, "arguments": {…}}]`, or the newer `[TOOL_CALLS]name[ARGS]{…}`;
 * - `llama3`: `<|python_tag|>{"name": …, "parameters": {…}}`, or an answer
 *   that is nothing but such an object naming one of the request's tools.
 * A call is read only when its JSON is whole; anything else stays text.
 */
import { parseJsonWithin } from "../values.ts";

/** The forms of text call Rienda reads. */
export type TextToolCallForm = "hermes" | "mistral" | "llama3";

/** `tool_calls_in_text`: one form, every form (`auto`), or none. */
export type TextToolCallSetting = TextToolCallForm | "auto" | "off";

export const TEXT_TOOL_CALL_FORMS: readonly TextToolCallForm[] = ["hermes", "mistral", "llama3"];
export const TEXT_TOOL_CALL_SETTINGS: readonly TextToolCallSetting[] = [...TEXT_TOOL_CALL_FORMS, "auto", "off"];

/** The text that opens a call of each form. */
export const CALL_MARKERS: Readonly<Record<TextToolCallForm, string>> = {
  hermes: "<tool_call>",
  mistral: "[TOOL_CALLS]",
  llama3: "<|python_tag|>",
};

/** One call read from text: the tool's name and its arguments as JSON text. */
export interface TextToolCall {
  name: string;
  arguments: string;
}

/** What `readTextToolCalls` found: the calls, and the text around them that stays an answer. */
export interface ReadCalls {
  form: TextToolCallForm;
  calls: TextToolCall[];
  text: string;
}

/** The forms a setting reads. */
export function formsOf(setting: TextToolCallSetting): readonly TextToolCallForm[] {
  if (setting === "off") return [];
  if (setting === "auto") return TEXT_TOOL_CALL_FORMS;
  return [setting];
}

/**
 * The calls `text` holds in one of `forms` (the form whose marker comes
 * first), or undefined when it holds none that can be read whole.
 * `toolNames` are the request's tools: a bare Llama 3 object must name one.
 */
export function readTextToolCalls(
  text: string,
  forms: readonly TextToolCallForm[],
  toolNames: ReadonlySet<string>,
): ReadCalls | undefined {
  const marked = forms
    .map((form) => ({ form, at: text.indexOf(CALL_MARKERS[form]) }))
    .filter((found) => found.at >= 0)
    .sort((a, b) => a.at - b.at);
  for (const { form, at } of marked) {
    const calls = readMarked(form, text.slice(at));
    if (calls && calls.calls.length > 0)
      return { form, calls: calls.calls, text: joinText(text.slice(0, at), calls.rest) };
  }
  if (forms.includes("llama3")) {
    const bare = readJsonCalls(text.trim(), ";");
    if (
      bare &&
      bare.rest.trim() === "" &&
      bare.calls.length > 0 &&
      bare.calls.every((call) => toolNames.has(call.name))
    ) {
      return { form: "llama3", calls: bare.calls, text: "" };
    }
  }
  return undefined;
}

/**
 * The form of call `text` seems to hold, read or not: a marker of any
 * form, or a bare object naming one of `toolNames`. For the notice that
 * tells which setting to turn on.
 */
export function lookalikeForm(text: string, toolNames: ReadonlySet<string>): TextToolCallForm | undefined {
  for (const form of TEXT_TOOL_CALL_FORMS) if (text.includes(CALL_MARKERS[form])) return form;
  const bare = readJsonCalls(text.trim(), ";");
  if (bare && bare.calls.some((call) => toolNames.has(call.name))) return "llama3";
  return undefined;
}

function readMarked(form: TextToolCallForm, text: string): { calls: TextToolCall[]; rest: string } | undefined {
  switch (form) {
    case "hermes":
      return readHermes(text);
    case "mistral":
      return readMistral(text);
    case "llama3":
      return readJsonCalls(text.slice(CALL_MARKERS.llama3.length).trim(), ";");
  }
}

/** Each `<tool_call>…</tool_call>` (the last one may lack its closing tag, cut by the end of the answer). */
function readHermes(text: string): { calls: TextToolCall[]; rest: string } | undefined {
  const calls: TextToolCall[] = [];
  let rest = "";
  let at = 0;
  const open = CALL_MARKERS.hermes;
  const close = "</tool_call>";
  while (at < text.length) {
    const start = text.indexOf(open, at);
    if (start < 0) {
      rest += text.slice(at);
      break;
    }
    rest += text.slice(at, start);
    const end = text.indexOf(close, start);
    const body = text.slice(start + open.length, end < 0 ? undefined : end).trim();
    const call = callOf(parseJson(body));
    if (!call) return undefined;
    calls.push(call);
    at = end < 0 ? text.length : end + close.length;
  }
  return { calls, rest };
}

/** `[TOOL_CALLS][{…}, …]`, or one or more `[TOOL_CALLS]name[ARGS]{…}` (a `[CALL_ID]id` may sit before `[ARGS]`). */
function readMistral(text: string): { calls: TextToolCall[]; rest: string } | undefined {
  const marker = CALL_MARKERS.mistral;
  const body = text.slice(marker.length).trimStart();
  if (body.startsWith("[")) {
    const end = jsonEnd(body, 0);
    if (end < 0) return undefined;
    const list = parseJson(body.slice(0, end));
    if (!Array.isArray(list)) return undefined;
    const calls = list.map(callOf);
    if (calls.some((call) => call === undefined)) return undefined;
    return { calls: calls as TextToolCall[], rest: body.slice(end) };
  }
  const calls: TextToolCall[] = [];
  let rest = text;
  while (rest.trimStart().startsWith(marker)) {
    rest = rest.trimStart().slice(marker.length);
    const args = rest.indexOf("[ARGS]");
    if (args < 0) return undefined;
    const name = rest
      .slice(0, args)
      .replace(/\[CALL_ID\][\s\S]*$/, "")
      .trim();
    const start = args + "[ARGS]".length;
    const end = jsonEnd(rest, start);
    if (name === "" || end < 0) return undefined;
    const value = parseJson(rest.slice(start, end));
    if (value === undefined) return undefined;
    calls.push({ name, arguments: JSON.stringify(value) });
    rest = rest.slice(end);
  }
  return { calls, rest };
}

/** JSON objects `{"name", "parameters"|"arguments"}` one after another, split by `separator` or space. */
function readJsonCalls(text: string, separator: string): { calls: TextToolCall[]; rest: string } | undefined {
  const calls: TextToolCall[] = [];
  let at = 0;
  while (text[at] === "{") {
    const end = jsonEnd(text, at);
    if (end < 0) return undefined;
    const call = callOf(parseJson(text.slice(at, end)));
    if (!call) return undefined;
    calls.push(call);
    at = end;
    while (at < text.length && (text[at] === separator || /\s/.test(text[at]!))) at++;
  }
  if (calls.length === 0) return undefined;
  return { calls, rest: text.slice(at) };
}

/** A call object: `name` and its arguments (`arguments` or `parameters`; an object, or JSON text of one). */
function callOf(value: unknown): TextToolCall | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fn =
    typeof record.function === "object" && record.function !== null
      ? (record.function as Record<string, unknown>)
      : record;
  const name = fn.name;
  if (typeof name !== "string" || name.trim() === "") return undefined;
  const args = fn.arguments ?? fn.parameters ?? {};
  if (typeof args === "string")
    return parseJson(args) === undefined ? undefined : { name: name.trim(), arguments: args };
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  return { name: name.trim(), arguments: JSON.stringify(args) };
}

function parseJson(text: string): unknown {
  try {
    return parseJsonWithin(text);
  } catch {
    return undefined;
  }
}

/** The index just past the JSON object or array that starts at `start`, or -1 when it does not close. */
function jsonEnd(text: string, start: number): number {
  const first = text[start];
  if (first !== "{" && first !== "[") return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function joinText(before: string, after: string): string {
  return `${before.trimEnd()}${before.trim() !== "" && after.trim() !== "" ? "\n" : ""}${after.trim()}`;
}
