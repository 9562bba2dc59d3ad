/**
 * A turn's engine events as `session/update` notifications (docs/acp.md,
 * "What the editor sees"): text and thinking as message and thought chunks,
 * each tool call as `tool_call` then `tool_call_update`s (its live output,
 * then its result and status), notices as `notice` updates where the
 * client shows them, else as message text.
 *
 * A subagent's tool calls are shown too, under ids prefixed by the call
 * that started the subagent; its text and thinking are not (its answer
 * comes back as that call's result).
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { EngineEvent, RunOutcome } from "../../engine/index.ts";
import { toolCallStarted } from "./tool-calls.ts";

/** How much of a call's live output an update carries: its last 32 KB. */
const LIVE_OUTPUT_CHARS = 32 * 1024;

/** What a turn's mapper needs to know of its session. */
export interface TurnUpdateContext {
  workdir: string;
  /** The client said it shows `notice` updates (`clientCapabilities.session.notices`). */
  notices: boolean;
  /** The model's context window in tokens, when known: each answer then reports how full it is. */
  contextWindow?: number;
}

/** Maps one turn's events; keeps what a later event needs (output so far, the last stop reason). */
export class TurnUpdates {
  readonly #context: TurnUpdateContext;
  readonly #output = new Map<string, string>();
  /** The model's stop reason of the turn's last answer: a refusal is told apart from an ordinary end. */
  lastStopReason: string | undefined;

  constructor(context: TurnUpdateContext) {
    this.#context = context;
  }

  /** The updates one event becomes (often none). */
  map(event: EngineEvent): SessionUpdate[] {
    const sub = event.parent !== undefined;
    switch (event.type) {
      case "text_delta":
        return sub || event.text === ""
          ? []
          : [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }];
      case "thinking_delta":
        return sub || event.thinking === ""
          ? []
          : [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.thinking } }];
      case "message_end": {
        if (sub) return [];
        this.lastStopReason = event.stopReason;
        const size = this.#context.contextWindow;
        // The whole prompt as the model saw it plus its answer: what the next request starts from.
        return event.usage && size !== undefined
          ? [{ sessionUpdate: "usage_update", used: event.usage.inputTokens + event.usage.outputTokens, size }]
          : [];
      }
      case "tool_call":
        return [toolCallStarted(callId(event), event.name, event.arguments, this.#context.workdir)];
      case "tool_output": {
        const id = callId(event);
        const soFar = `${this.#output.get(id) ?? ""}${event.text}`.slice(-LIVE_OUTPUT_CHARS);
        this.#output.set(id, soFar);
        return [{ sessionUpdate: "tool_call_update", toolCallId: id, content: [textContent(soFar)] }];
      }
      case "tool_result": {
        const id = callId(event);
        this.#output.delete(id);
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: id,
            status: event.isError ? "failed" : "completed",
            content: event.text === "" ? [] : [textContent(event.text)],
            rawOutput: { text: event.text, isError: event.isError },
          },
        ];
      }
      case "notice":
        return sub
          ? []
          : [this.notice(event.title ?? event.message, event.title !== undefined ? event.body : undefined, "info")];
      case "retry":
        return sub ? [] : [this.notice(`Retrying (attempt ${event.attempt}): ${event.message}`, undefined, "warning")];
      default:
        // Hooks and subagent starts and ends: the tool calls around them say what happened.
        return [];
    }
  }

  /** A notice: a `notice` update where the client shows them, else a line of the agent's message. */
  notice(title: string, description: string | undefined, severity: "info" | "warning" | "error"): SessionUpdate {
    if (this.#context.notices)
      return { sessionUpdate: "notice", severity, title, ...(description ? { description } : {}) };
    return {
      sessionUpdate: "agent_message_chunk",
      content: {
        type: "text",
        text: `\n\n> ${[title, description].filter(Boolean).join(": ").replace(/\n/g, "\n> ")}\n\n`,
      },
    };
  }

  /** The updates that say how a turn ended, when the stop reason alone does not (a limit, a failure). */
  ending(outcome: RunOutcome): SessionUpdate[] {
    if (outcome.reason === "max_turns" || outcome.reason === "max_cost" || outcome.reason === "max_tokens") {
      return [this.notice(outcome.message ?? `The run stopped: ${outcome.reason}`, undefined, "warning")];
    }
    return [];
  }
}

/** A call's id as the editor knows it: a subagent's call under the path of the calls above it. */
function callId(event: { id: string; parent?: string }): string {
  return event.parent !== undefined ? `${event.parent}/${event.id}` : event.id;
}

/** Text as tool call content. */
export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}
