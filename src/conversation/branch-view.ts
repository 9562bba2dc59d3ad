/**
 * What a program asks about the active branch (rpc `get_messages` and
 * `get_stats`): its messages with their entry ids (what `fork` takes), and
 * its tokens, cost and share of the context window.
 */
import type { SessionFile } from "../sessions/index.ts";
import { roundDollars } from "../values.ts";

/** One entry of the active branch, as `get_messages` lists it. */
export interface BranchMessage {
  id: string;
  kind: "message" | "compaction";
  role?: "user" | "assistant";
  /** The text blocks joined (a compaction: its summary). */
  text: string;
  /** Names of the attachments a prompt carried. */
  files?: string[];
  /** Tool calls an answer made: id, name, arguments. */
  tool_calls?: { id: string; name: string; arguments: unknown }[];
  /** Tool results a user turn carried: the call id, whether it failed. */
  tool_results?: { id: string; is_error: boolean }[];
  /** A partial answer: what cut it short. */
  interrupted?: string;
}

/** The active branch, root to leaf. */
export function branchMessages(session: SessionFile): BranchMessage[] {
  return session.branch().map((entry): BranchMessage => {
    if (entry.kind === "compaction") return { id: entry.id, kind: "compaction", text: entry.summary };
    const out: BranchMessage = { id: entry.id, kind: "message", role: entry.role, text: "" };
    for (const block of entry.blocks) {
      if (block.type === "text") out.text += block.text;
      else if (block.type === "attachment") (out.files ??= []).push(block.name);
      else if (block.type === "tool_call")
        (out.tool_calls ??= []).push({
          id: block.toolCallId,
          name: block.toolCallName,
          arguments: block.toolCallArguments,
        });
      else if (block.type === "tool_result")
        (out.tool_results ??= []).push({ id: block.toolResultCallId, is_error: block.toolResultIsError === true });
    }
    if (entry.interrupted) out.interrupted = entry.interrupted;
    return out;
  });
}

/** Tokens and cost of the branch's answers, and the share of the context window the last request used. */
export interface BranchStats {
  messages: number;
  answers: number;
  tokens: { input: number; output: number; cache_read: number; cache_write: number; reasoning: number };
  /** US dollars of the priced answers; null when none was priced. */
  cost: number | null;
  /** False when some answer had tokens but no price: `cost` is then a lower bound. */
  cost_complete: boolean;
  /** The last answer's input tokens against the model's window; null parts when unknown. */
  context: { tokens: number | null; window: number | null; share: number | null };
}

/** The stats of the active branch (a new conversation: zeros). */
export function branchStats(session: SessionFile | undefined, contextWindow: number | undefined): BranchStats {
  const stats: BranchStats = {
    messages: 0,
    answers: 0,
    tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 },
    cost: null,
    cost_complete: true,
    context: { tokens: null, window: contextWindow ?? null, share: null },
  };
  for (const entry of session?.branch() ?? []) {
    if (entry.kind !== "message") continue;
    stats.messages++;
    if (entry.role !== "assistant" || !entry.responseUsage) continue;
    const usage = entry.responseUsage;
    stats.answers++;
    stats.tokens.input += usage.inputTokens;
    stats.tokens.output += usage.outputTokens;
    stats.tokens.cache_read += usage.cacheReadTokens ?? 0;
    stats.tokens.cache_write += usage.cacheWriteTokens ?? 0;
    stats.tokens.reasoning += usage.reasoningTokens ?? 0;
    if (entry.responseCost !== undefined) stats.cost = (stats.cost ?? 0) + entry.responseCost;
    else if (usage.inputTokens + usage.outputTokens > 0) stats.cost_complete = false;
    stats.context.tokens = usage.inputTokens;
  }
  if (stats.context.tokens !== null && contextWindow)
    stats.context.share = Math.round((stats.context.tokens / contextWindow) * 1000) / 1000;
  if (stats.cost !== null) stats.cost = roundDollars(stats.cost);
  return stats;
}
