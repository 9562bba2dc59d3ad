/**
 * The one place where hook answers are interpreted (hooks.md "Chaining"):
 * hooks run in the agent's order, each sees the previous one's output, a
 * returned field replaces only itself, `null`/`undefined` keep the value, and
 * a throw or a malformed answer is a notice that counts as no opinion.
 */
import type { HookPort, OutputObserver } from "./ports.ts";
import type { EngineEvent, HookPoint, ToolCall } from "./types.ts";

/** Emits engine events; shared by every part of the loop. */
export type Emit = (event: EngineEvent) => void;

/** Runs every hook of a notification point (beforeRun, afterRun); answers are ignored. */
export async function notifyHooks(
  hooks: HookPort,
  point: "beforeRun" | "afterRun",
  payload: object,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  for (const name of hooks.names) {
    if (!hooks.handles(name, point)) continue;
    const answer = await hooks.call(name, point, [payload], observerFor(name, point, emit), signal);
    if (!answer.ok) reportFailure(emit, name, point, answer.message);
  }
}

/** beforeModelRequest: the system prompt for this turn only. */
export async function chainBeforeModelRequest(
  hooks: HookPort,
  payload: { system: string; model: string; messages: { role: string; text: string }[] },
  emit: Emit,
  signal: AbortSignal,
): Promise<string> {
  let system = payload.system;
  for (const name of hooks.names) {
    const value = await ask(hooks, name, "beforeModelRequest", [{ ...payload, system }], emit, signal);
    if (value === undefined) continue;
    const problem = checkFields(value, { system: "string" });
    if (problem) {
      reportMalformed(emit, name, "beforeModelRequest", problem);
      continue;
    }
    if (typeof value.system === "string" && value.system !== system) {
      system = value.system;
      emit({ type: "hook", name, point: "beforeModelRequest", outcome: "changed" });
    }
  }
  return system;
}

/** afterModelResponse: text and thinking as they enter the conversation. */
export async function chainAfterModelResponse(
  hooks: HookPort,
  payload: { text: string; thinking: string; toolCalls: ToolCall[] },
  emit: Emit,
  signal: AbortSignal,
): Promise<{ text: string; thinking: string }> {
  let { text, thinking } = payload;
  for (const name of hooks.names) {
    const value = await ask(hooks, name, "afterModelResponse", [{ text, thinking, toolCalls: payload.toolCalls }], emit, signal);
    if (value === undefined) continue;
    const problem = checkFields(value, { text: "string", thinking: "string" });
    if (problem) {
      reportMalformed(emit, name, "afterModelResponse", problem);
      continue;
    }
    let changed = false;
    if (typeof value.text === "string" && value.text !== text) [text, changed] = [value.text, true];
    if (typeof value.thinking === "string" && value.thinking !== thinking) [thinking, changed] = [value.thinking, true];
    if (changed) emit({ type: "hook", name, point: "afterModelResponse", outcome: "changed" });
  }
  return { text, thinking };
}

/** The verdict of the beforeToolExecute chain for one call. */
export type ToolVerdict = { allow: true; arguments: unknown } | { allow: false; reason: string; arguments: unknown };

/** beforeToolExecute: refusal (first one stops the chain) and argument rewrites. */
export async function chainBeforeToolExecute(
  hooks: HookPort,
  call: ToolCall,
  emit: Emit,
  signal: AbortSignal,
): Promise<ToolVerdict> {
  let args = call.arguments;
  for (const name of hooks.names) {
    const value = await ask(hooks, name, "beforeToolExecute", [{ id: call.id, name: call.name, arguments: args }], emit, signal);
    if (value === undefined) continue;
    const problem = checkFields(value, { allow: "boolean", reason: "string", arguments: "object" });
    if (problem) {
      reportMalformed(emit, name, "beforeToolExecute", problem);
      continue;
    }
    if (isPresent(value.arguments)) {
      args = value.arguments;
      emit({ type: "hook", name, point: "beforeToolExecute", outcome: "changed" });
    }
    if (value.allow === false) {
      const reason = typeof value.reason === "string" && value.reason !== "" ? value.reason : `refused by hook "${name}"`;
      emit({ type: "hook", name, point: "beforeToolExecute", outcome: "refused", message: reason });
      return { allow: false, reason, arguments: args };
    }
  }
  return { allow: true, arguments: args };
}

/** afterToolExecute: what the model reads. */
export async function chainAfterToolExecute(
  hooks: HookPort,
  call: ToolCall,
  result: { text: string; isError: boolean },
  emit: Emit,
  signal: AbortSignal,
): Promise<{ text: string; isError: boolean }> {
  let current = { ...result };
  for (const name of hooks.names) {
    const value = await ask(hooks, name, "afterToolExecute", [{ id: call.id, name: call.name, arguments: call.arguments }, { ...current }], emit, signal);
    if (value === undefined) continue;
    const problem = checkFields(value, { text: "string", isError: "boolean" });
    if (problem) {
      reportMalformed(emit, name, "afterToolExecute", problem);
      continue;
    }
    let changed = false;
    if (typeof value.text === "string" && value.text !== current.text) [current.text, changed] = [value.text, true];
    if (typeof value.isError === "boolean" && value.isError !== current.isError) [current.isError, changed] = [value.isError, true];
    if (changed) emit({ type: "hook", name, point: "afterToolExecute", outcome: "changed" });
  }
  return current;
}

type FieldType = "string" | "boolean" | "object";

/**
 * Calls one hook at one point. Returns the answer as a record, or undefined
 * for "no opinion" (not implemented, returned null/undefined, failed, or not
 * an object — the last two reported).
 */
async function ask(
  hooks: HookPort,
  name: string,
  point: HookPoint,
  args: unknown[],
  emit: Emit,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  if (!hooks.handles(name, point)) return undefined;
  const answer = await hooks.call(name, point, args, observerFor(name, point, emit), signal);
  if (!answer.ok) {
    reportFailure(emit, name, point, answer.message);
    return undefined;
  }
  const value = answer.value;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    reportMalformed(emit, name, point, `expected an object, got ${describe(value)}`);
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** Checks that each known field, when present, has its type; returns the first problem. */
function checkFields(value: Record<string, unknown>, fields: Record<string, FieldType>): string | undefined {
  for (const [key, type] of Object.entries(fields)) {
    const field = value[key];
    if (!isPresent(field)) continue;
    const ok = type === "object" ? typeof field === "object" && !Array.isArray(field) : typeof field === type;
    if (!ok) return `${key} must be ${type === "object" ? "an object" : `a ${type}`}, got ${describe(field)}`;
  }
  return undefined;
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

function reportFailure(emit: Emit, name: string, point: HookPoint, message: string): void {
  emit({ type: "hook", name, point, outcome: "error", message });
  emit({ type: "notice", message: `hook "${name}" failed in ${point}: ${message}` });
}

function reportMalformed(emit: Emit, name: string, point: HookPoint, problem: string): void {
  emit({ type: "hook", name, point, outcome: "error", message: problem });
  emit({ type: "notice", message: `hook "${name}" returned an invalid value from ${point}: ${problem}` });
}

function observerFor(name: string, point: HookPoint, emit: Emit): OutputObserver {
  return {
    log: (text) => emit({ type: "hook_output", name, point, stream: "log", text }),
    output: (stream, text) => emit({ type: "hook_output", name, point, stream, text }),
  };
}
