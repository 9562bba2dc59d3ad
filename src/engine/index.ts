/**
 * The run loop: turns, hook dispatch, tool execution order, the loop guard.
 * Owns the ports it needs (ports.ts) and never imports runtime, extensions,
 * ui or cli; the session file is the source of truth for every request.
 */
export { runAgent, type RunInput } from "./run-agent.ts";
export { formatNotice, noticeEvent } from "./notice-event.ts";
export { deliverSteering, type SteerMessage, type SteeringPort } from "./steering.ts";
export {
  historyForRequest,
  snapshotForHooks,
  messageText,
  MISSING_RESULT_TEXT,
  CUT_ANSWER_NOTES,
} from "./conversation.ts";
export { INTERRUPTED_RESULT_TEXT } from "./tool-round.ts";
export { IDENTICAL_ROUNDS_LIMIT } from "./loop-guard.ts";
export type { AnswerPort } from "./structured-answer.ts";
export type { AttachmentSnapshot, MessageSnapshot } from "./conversation.ts";
export type { Emit } from "./hook-chain.ts";
export type {
  CompactionPort,
  HookAnswer,
  HookPort,
  ModelPort,
  OutputObserver,
  PermissionPort,
  PermissionVerdict,
  ResponseMeta,
  SessionPort,
  ToolPort,
  ToolRunResult,
} from "./ports.ts";
export { createCompactor, type CompactableSession, type CompactorOptions } from "./compactor.ts";
export type { CompactionPolicy } from "./compaction.ts";
export {
  abortedByTimeLimit,
  CostBudget,
  RequestBudget,
  timeLimitAbort,
  unpricedBudget,
  type Limit,
  type RunLimits,
} from "./run-limits.ts";
export { withSubagents, type ChildRun, type SubagentOptions, type SubagentSpec } from "./subagents.ts";
export {
  HOOK_POINTS,
  type EngineEvent,
  type HookOutcome,
  type HookPoint,
  type OutputStream,
  type RunEndReason,
  type RunOutcome,
  type ToolCall,
} from "./types.ts";
