/** The `anthropic` stream mapper: Messages API events to StreamEvents. */
import { classifyStreamError } from "./classify-stream-error.ts";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.ts";
import { mapAnthropicUsage, mergeAnthropicUsage, type AnthropicUsageCounters } from "./map-anthropic-usage.ts";
import { parseEventData } from "./parse-event-data.ts";
import { truncatedFailure } from "./provider-failure.ts";
import { ResponseBuilder } from "./response-builder.ts";
import type { SseEvent, StreamEvent, StreamMapper } from "./types.ts";

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { model?: string; usage?: unknown };
  content_block?: {
    type?: string;
    id?: string;
    name?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    data?: string;
  };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: unknown;
  error?: unknown;
}

/**
 * Maps Messages API stream events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming) to
 * StreamEvents. The end is `message_stop`; an `error` event is a failure.
 * Each content block starts a new canonical block; `tool_use` input is
 * joined from `input_json_delta` pieces, thinking keeps its signature and
 * `redacted_thinking` its data. Blocks the API runs itself
 * (`server_tool_use`, `mcp_tool_use` and their `*_tool_result` blocks) are
 * left out: their input deltas never reach the tool-call builder, because
 * only indexes opened by a `tool_use` block are calls for us to run.
 */
export function createAnthropicStreamMapper(): StreamMapper {
  const builder = new ResponseBuilder();
  let model: string | undefined;
  let stopReason: string | undefined;
  let usage: AnthropicUsageCounters = {};
  const toolUseKeys = new Set<string>();

  return {
    push(sse: SseEvent): StreamEvent[] {
      const parsed = parseEventData<AnthropicEvent>(sse.data);
      if (!parsed.ok) return [{ type: "error", failure: parsed.failure }];
      const event = parsed.value;
      const key = `block-${event.index ?? 0}`;
      switch (event.type ?? sse.event) {
        case "message_start":
          if (typeof event.message?.model === "string") model = event.message.model;
          usage = mergeAnthropicUsage(usage, event.message?.usage);
          return [];
        case "content_block_start": {
          const block = event.content_block ?? {};
          builder.beginBlock();
          if (block.type === "tool_use") {
            const fragment: { id?: string; name?: string } = {};
            if (block.id) fragment.id = block.id;
            if (block.name) fragment.name = block.name;
            toolUseKeys.add(key);
            builder.toolCall(key, fragment);
            return [];
          }
          toolUseKeys.delete(key);
          if (block.type === "redacted_thinking") {
            if (typeof block.data === "string" && block.data !== "") builder.thinkingData({ redactedData: block.data });
            return [];
          }
          if (block.type === "text") return builder.text(block.text ?? "");
          if (block.type === "thinking") {
            const events = builder.thinking(block.thinking ?? "");
            if (block.signature) builder.signature(block.signature);
            return events;
          }
          return [];
        }
        case "content_block_delta": {
          const delta = event.delta ?? {};
          if (delta.type === "text_delta") return builder.text(delta.text ?? "");
          if (delta.type === "thinking_delta") return builder.thinking(delta.thinking ?? "");
          if (delta.type === "signature_delta") builder.signature(delta.signature ?? "");
          else if (delta.type === "input_json_delta" && delta.partial_json && toolUseKeys.has(key))
            builder.toolCall(key, { arguments: delta.partial_json });
          return [];
        }
        case "message_delta":
          if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
          usage = mergeAnthropicUsage(usage, event.usage);
          return [];
        case "message_stop": {
          const stop = mapAnthropicStopReason(stopReason);
          // "tool_use" for a server-run tool alone leaves us nothing to run.
          return builder.finish(
            stop === "tool_use" && !builder.hasToolCalls() ? "other" : stop,
            mapAnthropicUsage(usage),
            model,
          );
        }
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
