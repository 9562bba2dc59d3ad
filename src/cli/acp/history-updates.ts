/**
 * A Rienda session's history replayed as `session/update` notifications,
 * for `session/load` (docs/acp.md, "Loading a session"): the active
 * branch, message by message, as the editor would have seen it live.
 * What the history stands in for (an interrupted or failed request, turns
 * condensed by compaction) is said in a line of the agent's message.
 */
import { pathToFileURL } from "node:url";
import { isAbsolute, resolve } from "node:path";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { AttachmentBlock, Block } from "../../providers/index.ts";
import type { EndedReason, HistoryItem } from "../../conversation/index.ts";
import { toolCallStarted } from "./tool-calls.ts";
import { textContent } from "./turn-updates.ts";

/** Every update that replays `history`, in order. */
export function historyUpdates(history: readonly HistoryItem[], workdir: string): SessionUpdate[] {
  return history.flatMap((item) => itemUpdates(item, workdir));
}

/** What stands in for a request that ended without an answer. */
const ENDED: Record<EndedReason, string> = {
  interrupted: "(Interrupted.)",
  error: "(The request failed.)",
  limit: "(Stopped by a limit of the run.)",
};

function itemUpdates(item: HistoryItem, workdir: string): SessionUpdate[] {
  if (item.role === "condensed") return [agentText("(Earlier turns were condensed into a summary.)")];
  if (item.role === "ended") return [agentText(ENDED[item.reason])];
  const role = item.role;
  return item.blocks.flatMap((block) => blockUpdates(block, role, workdir));
}

function blockUpdates(block: Block, role: "user" | "assistant", workdir: string): SessionUpdate[] {
  switch (block.type) {
    case "text":
      if (block.text === "") return [];
      return [
        role === "user"
          ? { sessionUpdate: "user_message_chunk", content: { type: "text", text: block.text } }
          : agentText(block.text),
      ];
    case "thinking":
      return block.thinking === ""
        ? []
        : [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } }];
    case "attachment":
      return [{ sessionUpdate: "user_message_chunk", content: attachmentContent(block, workdir) }];
    case "tool_call":
      return [toolCallStarted(block.toolCallId, block.toolCallName, block.toolCallArguments, workdir)];
    case "tool_result": {
      const text = block.toolResult.map((part) => part.text).join("");
      return [
        {
          sessionUpdate: "tool_call_update",
          toolCallId: block.toolResultCallId,
          status: block.toolResultIsError ? "failed" : "completed",
          content: text === "" ? [] : [textContent(text)],
        },
      ];
    }
  }
}

/** An attachment as the user's content: an image as an image, a text as an embedded resource, a PDF as a blob. */
function attachmentContent(block: AttachmentBlock, workdir: string): ContentBlock {
  const uri = pathToFileURL(isAbsolute(block.name) ? block.name : resolve(workdir, block.name)).href;
  if (block.mediaType.startsWith("image/"))
    return { type: "image", mimeType: block.mediaType, data: block.data ?? "", uri };
  if (block.text !== undefined)
    return { type: "resource", resource: { uri, mimeType: block.mediaType, text: block.text } };
  return { type: "resource", resource: { uri, mimeType: block.mediaType, blob: block.data ?? "" } };
}

function agentText(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}
