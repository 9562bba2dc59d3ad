/**
 * The one place where hook answers are interpreted (hooks.md "Chaining"):
 * hooks run in the agent's order, each sees the previous one's output, a
 * returned field replaces only itself, `null`/`undefined` keep the value, and
 * a throw or a malformed answer is a notice that counts as no opinion.
 *
 * An interrupted hook is not "no opinion": the chain stops and says so, and
 * the caller must not use what the chain had so far as if every hook had
 * seen it (an unredacted answer, an unfiltered tool result).
 */
import type { HookArguments, HookPort, OutputObserver } from "./ports.ts";
import type { EngineEvent, HookPoint, ToolCall } from "./types.ts";
import { describeValue, isPlainObject } from "../values.ts";

/** Emits engine events; shared by every part of the loop. */
export type Emit = (event: EngineEvent) => void;

/** What a handler may return at each point that takes an answer, once checked. */
export interface HookReplies {
  beforeModelRequest: { system?: string };
  afterModelResponse: { text?: string; thinking?: string };
  beforeToolExecute: { allow?: boolean; reason?: string; arguments?: object };
  afterToolExecute: { text?: string; isError?: boolean };
}

/** Points whose answers count. */
export type AnsweringPoint = keyof HookReplies;

/**
 * One hook's answer at one point, read: a checked reply, or one of three
 * outcomes that must not be confused. "error" was already reported.
 */
export type HookVerdict<P extends AnsweringPoint> =
  | { kind: "reply"; reply: HookReplies[P] }
  | { kind: "no-opinion" }
  | { kind: "error" }
  | { kind: "interrupted" };

/** The end of a chain: the value every hook agreed on, or an interruption before all had answered. */
export type ChainResult<T> = { kind: "done"; value: T } | { kind: "interrupted" };

/** Runs every hook of a notification point (beforeRun, afterRun); answers are ignored, an interrupt stops the chain. */
export async function notifyHooks<P extends "beforeRun" | "afterRun">(
  hooks: HookPort,
  point: P,
  payload: HookArguments[P][0],
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  for (const name of hooks.names) {
    if (!hooks.handles(name, point)) continue;
    const args = [payload] as HookArguments[P];
    const answer = await hooks.call(name, point, args, observerFor(name, point, emit), signal);
    if (answer.kind === "interrupted") return;
    if (answer.kind === "failed") reportFailure(emit, name, point, answer.message);
  }
}

/** beforeModelRequest: the system prompt for this turn only. */
export async function chainBeforeModelRequest(
  hooks: HookPort,
  payload: HookArguments["beforeModelRequest"][0],
  emit: Emit,
  signal: AbortSignal,
): Promise<ChainResult<string>> {
  let system = payload.system;
  for (const name of hooks.names) {
    const verdict = await ask(hooks, name, "beforeModelRequest", [{ ...payload, system }], emit, signal);
    if (verdict.kind === "interrupted") return verdict;
    if (verdict.kind !== "reply") continue;
    const next = verdict.reply.system;
    if (next !== undefined && next !== system) {
      system = next;
      emit({ type: "hook", name, point: "beforeModelRequest", outcome: "changed" });
    }
  }
  return { kind: "done", value: system };
}

/** afterModelResponse: text and thinking as they enter the conversation. */
export async function chainAfterModelResponse(
  hooks: HookPort,
  payload: HookArguments["afterModelResponse"][0],
  emit: Emit,
  signal: AbortSignal,
): Promise<ChainResult<{ text: string; thinking: string }>> {
  let { text, thinking } = payload;
  for (const name of hooks.names) {
    const verdict = await ask(
      hooks,
      name,
      "afterModelResponse",
      [{ text, thinking, toolCalls: payload.toolCalls }],
      emit,
      signal,
    );
    if (verdict.kind === "interrupted") return verdict;
    if (verdict.kind !== "reply") continue;
    const reply = verdict.reply;
    let changed = false;
    if (reply.text !== undefined && reply.text !== text) [text, changed] = [reply.text, true];
    if (reply.thinking !== undefined && reply.thinking !== thinking) [thinking, changed] = [reply.thinking, true];
    if (changed) emit({ type: "hook", name, point: "afterModelResponse", outcome: "changed" });
  }
  return { kind: "done", value: { text, thinking } };
}

/** The verdict of the beforeToolExecute chain for one call. */
export type ToolVerdict =
  | { kind: "allow"; arguments: unknown }
  | { kind: "refuse"; reason: string; arguments: unknown }
  | { kind: "interrupted" };

/**
 * beforeToolExecute: refusal (the first one is final and ends the chain) and
 * argument rewrites. `reason` is a field like the others: one set by an
 * earlier hook stays until a later one replaces it, so a refusal that gives
 * none carries it; without any, the refusal names the hook.
 */
export async function chainBeforeToolExecute(
  hooks: HookPort,
  call: ToolCall,
  emit: Emit,
  signal: AbortSignal,
): Promise<ToolVerdict> {
  let args = call.arguments;
  let reason: string | undefined;
  for (const name of hooks.names) {
    const verdict = await ask(
      hooks,
      name,
      "beforeToolExecute",
      [{ id: call.id, name: call.name, arguments: args }],
      emit,
      signal,
    );
    if (verdict.kind === "interrupted") return verdict;
    if (verdict.kind !== "reply") continue;
    const reply = verdict.reply;
    if (reply.arguments !== undefined) {
      args = reply.arguments;
      emit({ type: "hook", name, point: "beforeToolExecute", outcome: "changed" });
    }
    if (reply.reason !== undefined) reason = reply.reason;
    if (reply.allow === false) {
      const text = reason !== undefined && reason !== "" ? reason : `refused by hook "${name}"`;
      emit({ type: "hook", name, point: "beforeToolExecute", outcome: "refused", message: text });
      return { kind: "refuse", reason: text, arguments: args };
    }
  }
  return { kind: "allow", arguments: args };
}

/** afterToolExecute: what the model reads. */
export async function chainAfterToolExecute(
  hooks: HookPort,
  call: ToolCall,
  result: { text: string; isError: boolean },
  emit: Emit,
  signal: AbortSignal,
): Promise<ChainResult<{ text: string; isError: boolean }>> {
  const current = { ...result };
  for (const name of hooks.names) {
    const verdict = await ask(
      hooks,
      name,
      "afterToolExecute",
      [{ id: call.id, name: call.name, arguments: call.arguments }, { ...current }],
      emit,
      signal,
    );
    if (verdict.kind === "interrupted") return verdict;
    if (verdict.kind !== "reply") continue;
    const reply = verdict.reply;
    let changed = false;
    if (reply.text !== undefined && reply.text !== current.text) [current.text, changed] = [reply.text, true];
    if (reply.isError !== undefined && reply.isError !== current.isError)
      [current.isError, changed] = [reply.isError, true];
    if (changed) emit({ type: "hook", name, point: "afterToolExecute", outcome: "changed" });
  }
  return { kind: "done", value: current };
}

type FieldType = "string" | "boolean" | "object";

/** The fields each answering point reads, with their types; anything else in an answer is ignored. */
const REPLY_FIELDS: { [P in AnsweringPoint]: Record<keyof HookReplies[P], FieldType> } = {
  beforeModelRequest: { system: "string" },
  afterModelResponse: { text: "string", thinking: "string" },
  beforeToolExecute: { allow: "boolean", reason: "string", arguments: "object" },
  afterToolExecute: { text: "string", isError: "boolean" },
};

/**
 * Calls one hook at one point and reads its answer. Not implemented,
 * null or undefined: no opinion. A throw or a malformed answer: reported,
 * then "error" (which the chains treat as no opinion). Cut short by an
 * interrupt: "interrupted", never reported as a failure.
 */
async function ask<P extends AnsweringPoint>(
  hooks: HookPort,
  name: string,
  point: P,
  args: HookArguments[P],
  emit: Emit,
  signal: AbortSignal,
): Promise<HookVerdict<P>> {
  if (!hooks.handles(name, point)) return { kind: "no-opinion" };
  const answer = await hooks.call(name, point, args, observerFor(name, point, emit), signal);
  switch (answer.kind) {
    case "interrupted":
      return { kind: "interrupted" };
    case "failed":
      reportFailure(emit, name, point, answer.message);
      return { kind: "error" };
    case "returned":
      break;
  }
  const value = answer.value;
  if (value === undefined || value === null) return { kind: "no-opinion" };
  // An Error, a Date, a Map... is not the object of fields a point reads (an Error is returned where `throw` was meant).
  if (typeof value !== "object" || Array.isArray(value) || !isPlainObject(value)) {
    reportMalformed(emit, name, point, `expected an object, got ${describeValue(value)}`);
    return { kind: "error" };
  }
  const fields: Record<string, FieldType> = REPLY_FIELDS[point];
  const reply: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(fields)) {
    const field = (value as Record<string, unknown>)[key];
    if (field === undefined || field === null) continue;
    const ok = type === "object" ? typeof field === "object" && !Array.isArray(field) : typeof field === type;
    if (!ok) {
      reportMalformed(
        emit,
        name,
        point,
        `${key} must be ${type === "object" ? "an object" : `a ${type}`}, got ${describeValue(field)}`,
      );
      // A refusal stands beside a malformed field (a reason that is not a string): a guard must not fail open on a slip in its answer.
      if (point === "beforeToolExecute" && (value as Record<string, unknown>).allow === false)
        return { kind: "reply", reply: { allow: false } as HookReplies[P] };
      return { kind: "error" };
    }
    reply[key] = field;
  }
  return { kind: "reply", reply: reply as HookReplies[P] };
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
