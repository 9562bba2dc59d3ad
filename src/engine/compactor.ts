/**
 * Compaction for a run (config.yaml `compaction`): before each request,
 * when the last reported prompt size (or the estimate of the history, if
 * larger) plus `reserveTokens` exceeds the model's context window, the
 * older turns are condensed by the compaction model (or the run's) and a
 * `compaction` entry is appended to the session; the session then rebuilds
 * the history as the summary followed by the kept turns.
 */
import { messageOf } from "../errors.ts";
import { contextWindowText, type AssistantResponse, type Message, type ResolvedModel } from "../providers/index.ts";
import { compactionSummaryMessage, type BranchEntry, type CompactionInput } from "../sessions/index.ts";
import {
  estimateTokens,
  keptIndex,
  needsCompaction,
  SUMMARY_SYSTEM_PROMPT,
  summaryRequestMessage,
  summaryText,
  type CompactionPolicy,
} from "./compaction.ts";
import type { Emit } from "./hook-chain.ts";
import type { CompactionPort, ModelPort } from "./ports.ts";

/** What the compactor needs of the session: its branch with entry ids, and where to store a summary. */
export interface CompactableSession {
  readonly id: string;
  branch(): BranchEntry[];
  appendCompaction(input: CompactionInput): string;
}

/** Everything a run's compactor needs; the cli wires config.yaml into it. */
export interface CompactorOptions {
  session: CompactableSession;
  /** The `compaction:` settings; `model` summarises instead of the run's model. */
  policy: CompactionPolicy & { model?: string };
  /** Resolves the `provider/alias` of `policy.model`; throws RiendaError when it is unknown. */
  resolveModel(ref: string): ResolvedModel;
  /** The run's model: its context window decides, and it summarises when no other is set. */
  model: ResolvedModel;
  modelPort: ModelPort;
}

/**
 * Builds the compaction port of a run; none without a known window. With
 * compaction off it only refuses a history larger than the whole window.
 */
export function createCompactor(options: CompactorOptions): CompactionPort | undefined {
  const { session, policy, model, modelPort } = options;
  const window = model.contextWindow;
  if (window === undefined) return undefined;
  const tooLong = (tokens: number): string | undefined =>
    tokens > window
      ? `the conversation is about ${tokens.toLocaleString("en-US")} tokens, more than the context window of ${model.ref} (${contextWindowText({ ...model, contextWindow: window })}), and ${policy.enabled ? "could not be compacted" : "compaction is off"}; a server would cut it without a word. Continue in a new session, or use a model with a larger window`
      : undefined;
  // One failed attempt per run is enough: retrying before every request would
  // stall each turn on a provider that cannot summarise right now.
  let failed = false;
  // Entries never change, so each message is estimated once per run, however many requests follow.
  const estimates = new Map<string, number>();
  const estimate = (entry: LiveEntry) => {
    let tokens = estimates.get(entry.id);
    if (tokens === undefined) estimates.set(entry.id, (tokens = estimateTokens(entry.message)));
    return tokens;
  };
  return {
    async maybeCompact(emit, signal) {
      const branch = session.branch();
      const live = liveEntries(branch);
      const summary = previousSummary(branch);
      const tokens = promptTokens(live, summary, estimate);
      if (failed || !needsCompaction(policy, window, tokens)) return tooLong(tokens);
      const messages = live.map((e) => e.message);
      const kept = keptIndex(messages, policy.keepRecentTokens);
      if (kept === undefined) return tooLong(tokens);
      // What gets condensed: the previous summary, if any, and the turns before the kept one.
      const older = [...(summary === undefined ? [] : [compactionSummaryMessage(summary)]), ...messages.slice(0, kept)];
      let summaryModel: ResolvedModel;
      try {
        summaryModel = policy.model ? options.resolveModel(policy.model) : model;
      } catch (error) {
        emit({ type: "notice", message: `compaction skipped: ${messageOf(error)}` });
        return tooLong(tokens);
      }
      // Writing the summary takes a model request: say so, or the chat sits silent meanwhile.
      emit({
        type: "notice",
        message: `compacting the conversation: ${summaryModel.ref} is condensing ${older.length} messages (about ${tokens} tokens) into a summary`,
      });
      emit({ type: "compaction_start", model: summaryModel.ref, messages: older.length, tokens });
      const answer = await summarize(modelPort, summaryModel, older, session.id, emit, signal);
      if (answer === undefined) {
        emit({ type: "compaction_end", compacted: false });
        failed = !signal.aborted;
        return signal.aborted ? undefined : tooLong(tokens);
      }
      const text = summaryText(answer.message);
      if (text === "") {
        emit({ type: "notice", message: "compaction skipped: the model returned an empty summary" });
        emit({ type: "compaction_end", compacted: false });
        return tooLong(tokens);
      }
      session.appendCompaction({
        summary: text,
        keptId: live[kept]!.id,
        tokensBefore: tokens,
        ...(answer.responseModel ? { responseModel: answer.responseModel } : {}),
        ...(answer.usage ? { responseUsage: answer.usage } : {}),
      });
      emit({
        type: "notice",
        message: `compacted the conversation: ${older.length} messages (about ${tokens} tokens) condensed into a summary`,
      });
      emit({ type: "compaction_end", compacted: true });
      return undefined;
    },
  };
}

type LiveEntry = { id: string; message: Message; inputTokens?: number };

/** The message entries after the newest compaction's kept point, with their ids. */
function liveEntries(branch: BranchEntry[]): LiveEntry[] {
  let start = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.kind !== "compaction") continue;
    const kept = branch.findIndex((e) => e.id === entry.keptId);
    start = kept !== -1 && kept < i ? kept : i + 1;
    break;
  }
  return branch.slice(start).flatMap((e) =>
    e.kind === "message"
      ? [
          {
            id: e.id,
            message: { role: e.role, blocks: e.blocks },
            ...(e.responseUsage ? { inputTokens: e.responseUsage.inputTokens + e.responseUsage.outputTokens } : {}),
          },
        ]
      : [],
  );
}

function previousSummary(branch: BranchEntry[]): string | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.kind === "compaction") return entry.summary;
  }
  return undefined;
}

/**
 * The size of the next prompt: the larger of what the provider reported for
 * the newest answer (its own tokens included) plus an estimate of what came
 * after it, and an estimate of the whole history. The estimate wins when it
 * is larger because a server that under-reports (some local servers count
 * only part of the prompt, or report nothing useful) must still get a
 * history that fits its window; the reported size wins otherwise, since it
 * counts what the estimate cannot see (the system prompt, tool definitions).
 */
function promptTokens(live: LiveEntry[], summary: string | undefined, estimate: (entry: LiveEntry) => number): number {
  let whole = summary === undefined ? 0 : estimateTokens(compactionSummaryMessage(summary));
  let tail = 0;
  let reported: number | undefined;
  for (let i = live.length - 1; i >= 0; i--) {
    const tokens = estimate(live[i]!);
    whole += tokens;
    if (reported === undefined) {
      const size = live[i]!.inputTokens;
      if (size !== undefined) reported = size + tail;
      else tail += tokens;
    }
  }
  return Math.max(reported ?? 0, whole);
}

async function summarize(
  modelPort: ModelPort,
  model: ResolvedModel,
  older: Message[],
  sessionId: string,
  emit: Emit,
  signal: AbortSignal,
): Promise<AssistantResponse | undefined> {
  const request = {
    model,
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [summaryRequestMessage(older)],
    tools: [],
    sessionId,
  };
  try {
    for await (const event of modelPort.stream(request, signal)) {
      if (event.type === "done") return event.response;
      if (event.type === "error") {
        if (!signal.aborted)
          emit({
            type: "notice",
            message: `compaction failed, going on with the whole history: ${event.failure.message}`,
          });
        return undefined;
      }
    }
  } catch (error) {
    if (!signal.aborted)
      emit({ type: "notice", message: `compaction failed, going on with the whole history: ${messageOf(error)}` });
  }
  return undefined;
}
