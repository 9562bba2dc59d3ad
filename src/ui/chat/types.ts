/**
 * What the chat screen needs from the rest of the program: the conversation
 * (src/conversation/), which owns config, agents, sessions and the engine.
 * The screen only reads input and renders its events.
 */
export type {
  AgentRow,
  AttachmentRow,
  ChatStatus,
  Conversation as ChatBackend,
  EndedReason,
  HistoryItem,
  SessionRow,
  ToolRow,
  TreeRow,
  TurnIo,
} from "../../conversation/types.ts";
