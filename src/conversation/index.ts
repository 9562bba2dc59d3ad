/**
 * The conversation every front end opens (docs/conversation.md): one agent,
 * one session, the engine, the queue of steered and follow-up messages,
 * switches recorded on the active branch, partial answers kept. Front ends
 * (cli/chat/, cli/rpc/, cli/acp/, ui/) render its events and forward input; it
 * imports none of them.
 */
export { createConversation } from "./create-conversation.ts";
export { cutText, treeLines, type TreeLine } from "./tree-lines.ts";
export {
  modelsToPick,
  offeredModels,
  pickStartModel,
  rememberPick,
  type ChatWhere,
  type ModelPicker,
} from "./model-picks.ts";
export type { BranchMessage, BranchStats } from "./branch-view.ts";
export type { QueueKind } from "./turn-queue.ts";
export type * from "./types.ts";
export { modelRows, type ModelRow } from "./model-rows.ts";
