/** The `openai_responses` stream mapper: Responses API events to StreamEvents. */
import { classifyStreamError } from "./classify-stream-error.ts";
import { mapOpenAIResponsesStopReason } from "./map-openai-responses-stop-reason.ts";
import { mapOpenAIUsage } from "./map-openai-usage.ts";
import { parseEventData } from "./parse-event-data.ts";
import { truncatedFailure } from "./provider-failure.ts";
import { ResponseBuilder } from "./response-builder.ts";
import type { SseEvent, StreamEvent, StreamMapper } from "./types.ts";

interface ResponsesEvent {
  type?: string;
  delta?: string;
  item_id?: string;
  output_index?: number;
  arguments?: string;
  item?: {
    type?: string;
    id?: string;
    call_id?: string;
    name?: string;
    arguments?: string;
    encrypted_content?: string | null;
    summary?: Array<{ type?: string; text?: string }>;
  };
  response?: {
    model?: string;
    status?: string;
    usage?: unknown;
    incomplete_details?: { reason?: string } | null;
    error?: unknown;
  };
}

/**
 * Maps Responses API stream events
 * (https://platform.openai.com/docs/api-reference/responses-streaming) to
 * StreamEvents. The end is `response.completed` or `response.incomplete`;
 * `response.failed` and `error` are failures. Reasoning arrives as summary
 * text or, from open-weight servers, as raw reasoning text; both are
 * thinking. Each reasoning item is one thinking block, which keeps the
 * item's id and `encrypted_content` (from `response.output_item.done`) to
 * send back. Function calls are keyed by their output item id.
 */
export function createOpenAIResponsesStreamMapper(): StreamMapper {
  const builder = new ResponseBuilder();
  let model: string | undefined;
  // Reasoning summaries come in parts; a blank line keeps them apart in one thinking block.
  let lastSummaryKey: string | undefined;
  const streamedReasoning = new Set<string>();

  const keyOf = (event: ResponsesEvent): string => event.item_id ?? event.item?.id ?? String(event.output_index ?? 0);

  return {
    push(sse: SseEvent): StreamEvent[] {
      const parsed = parseEventData<ResponsesEvent>(sse.data);
      if (!parsed.ok) return [{ type: "error", failure: parsed.failure }];
      const event = parsed.value;
      const type = event.type ?? sse.event;
      if (typeof event.response?.model === "string" && event.response.model !== "") model = event.response.model;
      switch (type) {
        case "response.output_text.delta":
        case "response.refusal.delta":
          return builder.text(event.delta ?? "");
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta": {
          const key = `${keyOf(event)}:${(event as { summary_index?: number }).summary_index ?? 0}`;
          const separator =
            lastSummaryKey !== undefined && lastSummaryKey !== key && type === "response.reasoning_summary_text.delta"
              ? "\n\n"
              : "";
          lastSummaryKey = key;
          streamedReasoning.add(keyOf(event));
          return builder.thinking(separator + (event.delta ?? ""));
        }
        case "response.output_item.added":
          if (event.item?.type === "reasoning") {
            // A new reasoning item is a new thinking block: no separator before its first part.
            builder.beginBlock();
            lastSummaryKey = undefined;
          }
          if (event.item?.type === "function_call") {
            builder.toolCall(
              keyOf(event),
              withoutEmpty({ id: event.item.call_id, name: event.item.name, arguments: event.item.arguments }),
            );
          }
          return [];
        case "response.function_call_arguments.delta":
          builder.toolCall(keyOf(event), withoutEmpty({ arguments: event.delta }));
          return [];
        case "response.function_call_arguments.done":
          if (typeof event.arguments === "string") builder.toolCallArguments(keyOf(event), event.arguments);
          return [];
        case "response.output_item.done":
          return finishedItem(event, keyOf(event), builder, streamedReasoning);
        case "response.completed":
        case "response.incomplete": {
          const response = event.response ?? {};
          const stop = mapOpenAIResponsesStopReason(
            response.status ?? type.slice("response.".length),
            response.incomplete_details?.reason,
            builder.hasToolCalls(),
          );
          return builder.finish(stop, mapOpenAIUsage(response.usage, "responses"), model);
        }
        case "response.failed":
          return [
            {
              type: "error",
              failure: classifyStreamError({ error: event.response?.error ?? { message: "the response failed" } }),
            },
          ];
        case "error":
          return [{ type: "error", failure: classifyStreamError(event) }];
        default:
          return [];
      }
    },
    end(): StreamEvent[] {
      return [{ type: "error", failure: truncatedFailure() }];
    },
  };
}

/**
 * A finished output item: a reasoning item's summary when none of it
 * streamed, its `encrypted_content` to send back; a function call's id,
 * name and whole arguments.
 */
function finishedItem(
  event: ResponsesEvent,
  key: string,
  builder: ResponseBuilder,
  streamedReasoning: ReadonlySet<string>,
): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (event.item?.type === "reasoning") {
    // A server that sends the summary only with the finished item still gives us its text.
    const summary = (event.item.summary ?? [])
      .flatMap((part) => (typeof part.text === "string" && part.text !== "" ? [part.text] : []))
      .join("\n\n");
    if (summary !== "" && !streamedReasoning.has(key)) events.push(...builder.thinking(summary));
    if (
      typeof event.item.id === "string" &&
      typeof event.item.encrypted_content === "string" &&
      event.item.encrypted_content !== ""
    ) {
      builder.thinkingData({ encryptedReasoning: { id: event.item.id, content: event.item.encrypted_content } });
    }
  }
  if (event.item?.type === "function_call") {
    builder.toolCall(key, withoutEmpty({ id: event.item.call_id, name: event.item.name }));
    if (typeof event.item.arguments === "string") builder.toolCallArguments(key, event.item.arguments);
  }
  return events;
}

function withoutEmpty(fragment: {
  id?: string | undefined;
  name?: string | undefined;
  arguments?: string | undefined;
}): { id?: string; name?: string; arguments?: string } {
  const out: { id?: string; name?: string; arguments?: string } = {};
  if (fragment.id) out.id = fragment.id;
  if (fragment.name) out.name = fragment.name;
  if (fragment.arguments) out.arguments = fragment.arguments;
  return out;
}
