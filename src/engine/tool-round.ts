/**
 * Executes the tool calls of one assistant message, strictly in order, each
 * through the permission rules → beforeToolExecute → checks → tool → afterToolExecute. Every call
 * gets a result in the session, even when the run is interrupted half-way.
 * A refusal is final: the refused call's result is the reason, and no later
 * hook (afterToolExecute included) is consulted for it. The `tool_call`
 * event carries the arguments that ran, after any rewrite.
 */
import type { ToolResultBlock } from "../providers/index.ts";
import type { ToolResult } from "../tools/types.ts";
import { chainAfterToolExecute, chainBeforeToolExecute, type Emit } from "./hook-chain.ts";
import type { Usage } from "../providers/index.ts";
import type { HookPort, OutputObserver, SessionPort, ToolPort } from "./ports.ts";
import type { ToolCall } from "./types.ts";

/** Result text of a call the interrupt prevented from running or finishing. */
export const INTERRUPTED_RESULT_TEXT = "the run was interrupted before this tool call finished";

/** One executed call, for the loop guard. */
export interface ExecutedCall {
  name: string;
  arguments: unknown;
  text: string;
  isError: boolean;
}

/**
 * Runs every call in order; stops running tools (but still records results)
 * once interrupted. `usage` receives the model usage of calls that ran a
 * model (subagents).
 */
export async function runToolRound(
  calls: ToolCall[],
  deps: {
    tools: ToolPort;
    hooks: HookPort;
    session: SessionPort;
    emit: Emit;
    signal: AbortSignal;
    finalSignal?: AbortSignal;
    usage?: (usage: Usage, cost?: number) => void;
  },
): Promise<ExecutedCall[]> {
  const { emit, signal } = deps;
  const executed: ExecutedCall[] = [];
  for (const call of calls) {
    let result: ToolResult;
    if (signal.aborted) {
      announce(call, call.arguments, emit);
      result = interrupted();
    } else {
      result = await runOne(call, deps);
    }
    emit({ type: "tool_result", id: call.id, name: call.name, text: result.text, isError: result.isError });
    deps.session.appendMessage({ role: "user", blocks: [resultBlock(call.id, result)] });
    executed.push({ name: call.name, arguments: call.arguments, text: result.text, isError: result.isError });
  }
  return executed;
}

async function runOne(
  call: ToolCall,
  deps: {
    tools: ToolPort;
    hooks: HookPort;
    emit: Emit;
    signal: AbortSignal;
    finalSignal?: AbortSignal;
    usage?: (usage: Usage, cost?: number) => void;
  },
): Promise<ToolResult> {
  const { tools, hooks, emit, signal } = deps;
  const permitted = await checkPermission(call, hooks, emit, signal);
  if (permitted !== undefined) {
    announce(call, call.arguments, emit);
    return permitted;
  }
  const verdict = await chainBeforeToolExecute(hooks, call, emit, signal);
  if (verdict.kind === "interrupted" || signal.aborted) {
    announce(call, call.arguments, emit);
    return interrupted();
  }
  announce(call, verdict.arguments, emit);
  if (verdict.kind === "refuse") return { text: verdict.reason, isError: true };
  const effective: ToolCall = { ...call, arguments: verdict.arguments };
  const ran = tools.has(call.name)
    ? await tools.run(effective, observerFor(call, emit), signal, deps.finalSignal)
    : { text: `unknown tool "${call.name}"`, isError: true };
  if (ran.usage) deps.usage?.(ran.usage, ran.cost);
  const result: ToolResult = { text: ran.text, isError: ran.isError };
  if (signal.aborted) return interrupted();
  const after = await chainAfterToolExecute(hooks, effective, result, emit, signal);
  // An afterToolExecute chain cut short may not have filtered the result yet: it is not what the model reads.
  return after.kind === "interrupted" ? interrupted() : after.value;
}

/**
 * The permission rules' verdict: undefined when the call goes on to the
 * hooks, else its result (a refusal naming the rule, or the interruption
 * that cut a question short). Before the hooks, so a rule sees the model's
 * own arguments and no hook can turn a denied call into an allowed one.
 */
async function checkPermission(
  call: ToolCall,
  hooks: HookPort,
  emit: Emit,
  signal: AbortSignal,
): Promise<ToolResult | undefined> {
  if (!hooks.permissions) return undefined;
  const verdict = await hooks.permissions.check(call, observerFor(call, emit), signal);
  if (signal.aborted) return interrupted();
  if (verdict.kind === "allow") return undefined;
  if (verdict.kind === "allowed") {
    emit({ type: "permission", id: call.id, name: call.name, outcome: "approved", rule: verdict.rule });
    return undefined;
  }
  emit({
    type: "permission",
    id: call.id,
    name: call.name,
    outcome: "refused",
    ...(verdict.rule !== undefined ? { rule: verdict.rule } : {}),
    message: verdict.reason,
  });
  return { text: verdict.reason, isError: true };
}

/** The `tool_call` event, with the arguments that run (or would have run); `originalArguments` only when a hook rewrote the model's. */
function announce(call: ToolCall, args: unknown, emit: Emit): void {
  const rewritten = args !== call.arguments;
  emit({
    type: "tool_call",
    id: call.id,
    name: call.name,
    arguments: args,
    ...(rewritten ? { originalArguments: call.arguments } : {}),
  });
}

function interrupted(): ToolResult {
  return { text: INTERRUPTED_RESULT_TEXT, isError: true };
}

function resultBlock(id: string, result: ToolResult): ToolResultBlock {
  const block: ToolResultBlock = {
    type: "tool_result",
    toolResultCallId: id,
    toolResult: [{ type: "text", text: result.text }],
  };
  if (result.isError) block.toolResultIsError = true;
  return block;
}

function observerFor(call: ToolCall, emit: Emit): OutputObserver {
  return {
    callId: call.id,
    log: (text) => emit({ type: "tool_output", id: call.id, name: call.name, stream: "log", text }),
    output: (stream, text) => emit({ type: "tool_output", id: call.id, name: call.name, stream, text }),
    nested: (event) => emit(event),
  };
}
