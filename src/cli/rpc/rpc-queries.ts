/**
 * The rpc commands that only read (docs/rpc.md): sessions, the active
 * branch with entry ids, stats, the models on offer. They are answered
 * whenever they come, a run going on or not.
 */
import type { Conversation } from "../../conversation/index.ts";
import type { RpcCommand } from "./rpc-protocol.ts";

/** The data of a reading command's response; undefined for any other command. */
export function answerQuery(
  command: RpcCommand,
  conversation: Conversation,
): Promise<Record<string, unknown>> | undefined {
  switch (command.type) {
    case "list_sessions":
      return Promise.resolve({ sessions: conversation.listSessions() });
    case "get_messages":
      return Promise.resolve({ session_id: conversation.status().sessionId, messages: conversation.messages() });
    case "get_stats":
      return Promise.resolve({ session_id: conversation.status().sessionId, ...conversation.stats() });
    case "list_models":
      return conversation.listModels().then((models) => ({ models }));
    case "get_models":
      return conversation
        .modelRows()
        .then((rows) => ({ models: rows.map(modelJson), current: conversation.status().model }));
    default:
      return undefined;
  }
}

/** One model of `get_models`, in the wire's snake case. */
function modelJson(row: Awaited<ReturnType<Conversation["modelRows"]>>[number]): Record<string, unknown> {
  return {
    ref: row.ref,
    provider: row.provider,
    origin: row.origin,
    ...(row.name !== undefined ? { name: row.name } : {}),
    context_window: row.contextWindow ?? null,
    thinking_levels: row.thinking,
    key: row.key,
  };
}
