/**
 * `ctx.confirm` as `session/request_permission` (docs/acp.md, "Questions"):
 * the client is asked "allow once" or "reject" about the tool call that
 * asks, with the question's title and text. A question from outside a
 * tool call (a beforeRun hook) gets a tool call of its own to hang on.
 * Anything but "allow" is a no: a rejection, the turn's cancellation, a
 * client that fails to answer.
 */
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { Prompt } from "../../runtime/index.ts";
import type { ConfirmOrigin } from "../../compose/index.ts";
import { textContent } from "./turn-updates.ts";

/** The two answers offered. */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

/** What asking needs: the session's updates and the client's answer. */
export interface PermissionWire {
  update(update: SessionUpdate): void;
  request(params: RequestPermissionRequest, cancel: AbortSignal): Promise<RequestPermissionResponse>;
}

let questions = 0;

/** Asks the client; true only for "allow". `cancel` is the turn's: aborting it withdraws the question. */
export async function askPermission(
  wire: PermissionWire,
  sessionId: string,
  prompt: Prompt,
  origin: ConfirmOrigin | undefined,
  cancel: AbortSignal,
): Promise<boolean> {
  const own = origin === undefined ? `question-${++questions}` : undefined;
  const toolCallId = own ?? (origin!.parent !== undefined ? `${origin!.parent}/${origin!.callId}` : origin!.callId);
  if (own)
    wire.update({ sessionUpdate: "tool_call", toolCallId: own, title: prompt.title, kind: "other", status: "pending" });
  let allowed = false;
  try {
    const answer = await wire.request(
      {
        sessionId,
        toolCall: { toolCallId, title: prompt.title, content: [textContent(prompt.body)] },
        options: PERMISSION_OPTIONS,
      },
      cancel,
    );
    allowed = answer.outcome.outcome === "selected" && answer.outcome.optionId === "allow";
  } catch {
    // Withdrawn (the turn was cancelled) or not answered: a no.
  }
  if (own)
    wire.update({ sessionUpdate: "tool_call_update", toolCallId: own, status: allowed ? "completed" : "failed" });
  return allowed;
}
