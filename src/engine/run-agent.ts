/**
 * The run loop (contract.md §5): beforeRun, then turns of
 * beforeModelRequest → model → afterModelResponse → tool calls in order,
 * until the model answers without tool calls; afterRun on every exit path.
 *
 * Invariants: the session receives only whole messages; every tool call gets
 * a result; a failing tool or hook never ends the run; an interrupt ends it
 * with reason "interrupted", a consistent session, and (once the prompt is
 * stored) an interruption recorded where the conversation stopped.
 */
import { roundDollars } from "../values.ts";
import {
  costOf,
  type AnswerCut,
  type AttachmentBlock,
  type Block,
  type ResolvedModel,
  type Usage,
} from "../providers/index.ts";
import { rewriteMessage, splitMessage, withoutCutCalls } from "./assistant-message.ts";
import { historyForRequest, snapshotForHooks } from "./conversation.ts";
import { chainAfterModelResponse, chainBeforeModelRequest, notifyHooks, type Emit } from "./hook-chain.ts";
import { LoopGuard, IDENTICAL_ROUNDS_LIMIT } from "./loop-guard.ts";
import { requestModel, type PartialAnswer } from "./model-turn.ts";
import type { CompactionPort, HookPort, ModelPort, SessionPort, ToolPort } from "./ports.ts";
import { AnswerState, type AnswerPort } from "./structured-answer.ts";
import { runToolRound } from "./tool-round.ts";
import { deliverSteering, type SteeringPort } from "./steering.ts";
import { abortedByTimeLimit, limitBeforeRequest, unpricedBudget, type RunLimits } from "./run-limits.ts";
import type { RunEndReason, RunOutcome } from "./types.ts";

/** Everything one run needs; supplied by the composition root. */
export interface RunInput {
  /** The user's prompt for this run. */
  prompt: string;
  /** What the prompt carries (files, piped stdin): stored before its text, in this order. */
  attachments?: AttachmentBlock[];
  /** `--schema`: the final answer must be JSON matching it. */
  answer?: AnswerPort;
  /** Agent body + project instructions. */
  system: string;
  /** Read again before every request and put after `system` (a blank line between): the workspace's skills catalog, which may change mid-run. */
  systemExtra?: () => string;
  model: ResolvedModel;
  agentId: string;
  modelPort: ModelPort;
  tools: ToolPort;
  hooks: HookPort;
  session: SessionPort;
  /** Condenses long histories before a request; none: the history is always sent whole. */
  compactor?: CompactionPort;
  emit: Emit;
  /** Aborted on interrupt. */
  signal: AbortSignal;
  /** Signal for afterRun hooks, which still run after an interrupt; aborted on a second interrupt. */
  finalSignal?: AbortSignal;
  /** Turns and cost (run-limits.ts); none: only the loop guard bounds the run. */
  limits?: RunLimits;
  /** Messages the user sent into the running turn, delivered at its next safe point (steering.ts). */
  steering?: SteeringPort;
}

/** Runs the agent to the end of its turn. Never throws for run failures. */
export async function runAgent(input: RunInput): Promise<RunOutcome> {
  const { hooks, emit, signal } = input;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const progress: Progress = { promptStored: false };
  let outcome: RunOutcome;
  input.limits?.requests?.open();
  try {
    outcome = await loop(input, usage, progress);
  } catch (error) {
    outcome = {
      reason: signal.aborted ? "interrupted" : "error",
      message: error instanceof Error ? error.message : String(error),
      usage,
    };
  } finally {
    input.limits?.requests?.close();
  }
  // The run has a cost only when every answer in it (subagents' included) was priced: a sum that
  // left some answers out would read as the whole run's cost beside the whole run's tokens.
  if (progress.cost !== undefined && !progress.unpriced) outcome = { ...outcome, cost: roundDollars(progress.cost) };
  if (outcome.reason === "interrupted") {
    outcome = { ...outcome, message: outcome.message ?? "the run was interrupted" };
    // A time limit ends the run as an interrupt does, but the history says it was the limit.
    if (progress.promptStored) recordInterruption(input, abortedByTimeLimit(signal) ? "limit" : undefined);
  } else if (
    (outcome.reason === "error" || outcome.reason === "max_turns" || outcome.reason === "max_cost") &&
    progress.promptStored
  ) {
    // A failed request left unanswered must not be glued onto the next prompt either.
    recordInterruption(input, outcome.reason === "error" ? "error" : "limit");
  }
  // hooks.md knows three reasons: a run that did not finish its work for any other cause ended in error.
  const reason = outcome.reason === "end_turn" || outcome.reason === "interrupted" ? outcome.reason : "error";
  await notifyHooks(hooks, "afterRun", { reason }, emit, afterRunSignal(signal, input.finalSignal));
  return outcome;
}

/**
 * What cuts the afterRun hooks short: after an interrupt, only the second
 * one (the hooks still get to see the interrupted run); after a run that
 * ended on its own, the first, so that an interrupt is never ignored while
 * a hook takes its time.
 */
function afterRunSignal(signal: AbortSignal, finalSignal: AbortSignal | undefined): AbortSignal {
  const final = finalSignal ?? new AbortController().signal;
  return signal.aborted ? final : AbortSignal.any([signal, final]);
}

/** What the loop leaves behind for the outcome, whatever way it ends. */
interface Progress {
  promptStored: boolean;
  /** Dollars spent so far, when the model's prices are known. */
  cost?: number;
  /** Some answer (of this run or a subagent's) had tokens but no price. */
  unpriced?: boolean;
}

async function loop(input: RunInput, usage: Usage, progress: Progress): Promise<RunOutcome> {
  const { hooks, emit, signal, session, model } = input;
  const end = (reason: RunEndReason, message?: string): RunOutcome => ({
    reason,
    usage,
    ...(message ? { message } : {}),
  });

  // A budget its model cannot be measured against is refused before anything runs (a subagent's too).
  const unpriced = unpricedBudget(input.limits, model);
  if (unpriced) return end("error", unpriced);
  await notifyHooks(
    hooks,
    "beforeRun",
    { sessionId: session.id, agentId: input.agentId, modelId: model.ref },
    emit,
    signal,
  );
  if (signal.aborted) return end("interrupted");
  session.appendMessage({ role: "user", blocks: [...(input.attachments ?? []), { type: "text", text: input.prompt }] });
  progress.promptStored = true;

  const answer = input.answer ? new AnswerState(input.answer, input.tools) : undefined;
  const tools = answer?.tools ?? input.tools;
  const guard = new LoopGuard();
  const rewritesAnswers = hooks.names.some((name) => hooks.handles(name, "afterModelResponse"));
  const shapesRequests = hooks.names.some((name) => hooks.handles(name, "beforeModelRequest"));
  let requests = 0;
  for (;;) {
    // Between rounds: after the tool calls of the last answer, before the next request.
    if (requests > 0) deliverSteering(input);
    const stop = limitBeforeRequest(input.limits, requests);
    if (stop) return end(stop.reason, stop.message);
    const tooLong = await input.compactor?.maybeCompact(emit, signal);
    if (signal.aborted) return end("interrupted");
    if (tooLong) return end("error", tooLong);
    const messages = historyForRequest(session.messages());
    // The hooks' snapshot of a long history is not free: build it only for hooks that read it.
    const extra = input.systemExtra?.() ?? "";
    let system = extra === "" ? input.system : input.system === "" ? extra : `${input.system}\n\n${extra}`;
    if (shapesRequests) {
      const shaped = await chainBeforeModelRequest(
        hooks,
        { system, model: model.ref, messages: snapshotForHooks(messages) },
        emit,
        signal,
      );
      if (shaped.kind === "interrupted") return end("interrupted");
      system = shaped.value;
    }
    if (signal.aborted) return end("interrupted");
    if (answer) system = system === "" ? answer.instruction() : `${system}\n\n${answer.instruction()}`;

    // Deltas are withheld while an afterModelResponse hook may still rewrite
    // the answer: what is shown must be what is stored.
    const streamEmit: Emit = rewritesAnswers ? (e) => (e.type === "retry" ? emit(e) : undefined) : emit;
    const turn = await requestModel(
      input.modelPort,
      {
        model,
        system,
        messages,
        tools: tools.specs(),
        sessionId: session.id,
        ...(answer ? { answerFormat: answer.format } : {}),
      },
      streamEmit,
      signal,
    );
    requests++;
    input.limits?.requests?.add();
    if (turn.kind === "interrupted") {
      // What the user saw is kept; withheld deltas (a rewriting hook never saw them) are not.
      if (!rewritesAnswers) keepPartialAnswer(input, turn.partial, abortedByTimeLimit(signal) ? "limit" : "user");
      return end("interrupted");
    }
    if (turn.kind === "failed") return { ...end("error", turn.failure.message), failure: turn.failure };

    // A call cut at the output limit may have half-written arguments: it is neither run nor stored (so never sent back).
    const response = withoutCutCalls(turn.response);
    addUsage(usage, response.usage);
    const cost = model.prices && response.usage ? costOf(response.usage, model.prices) : undefined;
    addCost(progress, cost);
    if (cost !== undefined) input.limits?.cost?.add(cost);
    const parts = splitMessage(response.message);
    // A refusal with nothing to show is not an "empty answer" (asking again gets the same refusal).
    if (response.stopReason === "refusal" && parts.text.trim() === "" && parts.toolCalls.length === 0)
      return end("error", REFUSAL);
    // An answer cut by max_tokens before any text (all thinking) is stored and ends the run as cut, not as empty.
    if (
      parts.text.trim() === "" &&
      parts.toolCalls.length === 0 &&
      (response.stopReason !== "max_tokens" || turn.response.message.blocks.length === 0)
    )
      return end("error", "the model returned an empty answer");

    const chained = await chainAfterModelResponse(hooks, parts, emit, signal);
    // Hooks that did not all see the answer may not have redacted it yet: it is neither shown nor stored.
    if (chained.kind === "interrupted") return end("interrupted");
    const rewritten = chained.value;
    if (rewritesAnswers) {
      if (rewritten.thinking) emit({ type: "thinking_delta", thinking: rewritten.thinking });
      if (rewritten.text) emit({ type: "text_delta", text: rewritten.text });
    }
    const message = rewriteMessage(response.message, parts, rewritten);
    session.appendMessage(message, {
      responseStopReason: response.stopReason,
      ...(response.responseModel ? { responseModel: response.responseModel } : {}),
      ...(response.usage ? { responseUsage: response.usage } : {}),
      ...(cost !== undefined ? { responseCost: cost } : {}),
    });
    emit({
      type: "message_end",
      text: rewritten.text,
      thinking: rewritten.thinking,
      toolCalls: parts.toolCalls,
      stopReason: response.stopReason,
      ...(response.usage ? { usage: response.usage } : {}),
      ...(response.responseModel ? { model: response.responseModel } : {}),
      ...(cost !== undefined ? { cost } : {}),
    });

    if (parts.toolCalls.length === 0) {
      if (signal.aborted) return end("interrupted");
      // A message steered in while the final answer streamed: the turn goes on with it.
      if (response.stopReason === "end_turn" && !answer && input.steering?.pending()) continue;
      // The answer is stored and shown as it came, but it is not whole: say so.
      if (response.stopReason === "max_tokens")
        return end("max_tokens", "the answer was cut short: the model reached its output limit (max_tokens)");
      // Stored and shown as it came, like a cut answer, but not what was asked for: a script must not take it for the answer.
      if (response.stopReason === "refusal")
        return end("error", `${REFUSAL}; the text before it is printed and stored`);
      if (!answer) return end("end_turn");
      const verdict = await answer.judgeText(rewritten.text);
      if (verdict.ok) return { ...end("end_turn"), output: { value: verdict.value } };
      if (answer.failed) return end("invalid_output", answer.failure);
      askForRepair(input, verdict.problem, verdict.repair);
      continue;
    }
    const executed = await runToolRound(parts.toolCalls, {
      tools,
      hooks,
      session,
      emit,
      signal,
      ...(input.finalSignal ? { finalSignal: input.finalSignal } : {}),
      usage: (add, cost) => {
        addUsage(usage, add);
        if (add.inputTokens + add.outputTokens > 0) addCost(progress, cost);
      },
    });
    if (signal.aborted) return end("interrupted");
    if (answer?.accepted) return { ...end("end_turn"), output: answer.accepted };
    if (answer?.failed) return end("invalid_output", answer.failure);
    if (guard.record(executed)) {
      return end(
        "error",
        `the model repeated the same tool calls with the same results ${IDENTICAL_ROUNDS_LIMIT} times in a row; stopping the run`,
      );
    }
  }
}

/**
 * Stores the answer an interrupt cut mid-stream, as far as it came: its
 * thinking (unsigned, so providers that need a signature leave it out) and
 * its text, exactly as streamed. The interruption recorded after it hangs
 * from it, which marks it as cut short for the history and the recaps.
 */
function keepPartialAnswer(input: RunInput, partial: PartialAnswer, cut: AnswerCut): void {
  const blocks: Block[] = [];
  if (partial.thinking !== "") blocks.push({ type: "thinking", thinking: partial.thinking });
  if (partial.text !== "") blocks.push({ type: "text", text: partial.text });
  if (blocks.length === 0) return;
  try {
    input.session.appendMessage({ role: "assistant", blocks }, { interrupted: cut });
  } catch (error) {
    input.emit({
      type: "notice",
      message: `could not keep the interrupted answer in the session: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

/** Stores the repair turn of an answer that missed its schema, and says so. */
function askForRepair(input: RunInput, problem: string, repair: string): void {
  input.emit({
    type: "notice",
    message: `the answer does not match the schema (${problem}); asking the model once more`,
  });
  input.session.appendMessage({ role: "user", blocks: [{ type: "text", text: repair }] });
}

/** Why a run whose final answer the provider ended as a refusal fails. */
const REFUSAL = "the provider ended the answer as a refusal (the model declined, or a content filter stopped it)";

/** Writes the interruption (or the failure) into the session; a failed write is a notice, the run is over anyway. */
function recordInterruption(input: RunInput, reason?: "error" | "limit"): void {
  try {
    input.session.appendInterruption(reason);
  } catch (error) {
    input.emit({
      type: "notice",
      message: `could not record the interruption in the session: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

function addUsage(total: Usage, add: Usage | undefined): void {
  if (!add) return;
  total.inputTokens += add.inputTokens;
  total.outputTokens += add.outputTokens;
  for (const key of ["cacheReadTokens", "cacheWriteTokens", "reasoningTokens"] as const) {
    if (add[key] !== undefined) total[key] = (total[key] ?? 0) + add[key];
  }
}

/** Adds one priced part to the run's cost, or marks the run as having an unpriced one. */
function addCost(progress: Progress, cost: number | undefined): void {
  if (cost === undefined) progress.unpriced = true;
  else progress.cost = (progress.cost ?? 0) + cost;
}
