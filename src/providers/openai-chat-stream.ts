import { classifyStreamError } from "./classify-stream-error.ts";
import { mapOpenAIChatStopReason } from "./map-openai-chat-stop-reason.ts";
import { mapOpenAIChatUsage } from "./map-openai-chat-usage.ts";
import { parseEventData } from "./parse-event-data.ts";
import { truncatedFailure } from "./provider-failure.ts";
import { ResponseBuilder } from "./response-builder.ts";
import type { SseEvent, StreamEvent, StreamMapper, Usage } from "./types.ts";

interface ChatChunk {
  model?: string;
  error?: unknown;
  usage?: unknown;
  choices?: Array<{
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
}

/**
 * Maps Chat Completions chunks to StreamEvents. The end is `data: [DONE]`;
 * a body that ends without it still counts as complete once a
 * `finish_reason` arrived (some local servers omit `[DONE]`), and as
 * truncated otherwise. Tool-call fragments are joined by their `index`.
 */
export function createOpenAIChatStreamMapper(): StreamMapper {
  const builder = new ResponseBuilder();
  const calls = new CallKeys();
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  let model: string | undefined;

  const finish = (): StreamEvent[] => builder.finish(mapOpenAIChatStopReason(finishReason, builder.hasToolCalls()), usage, model);

  return {
    push(event: SseEvent): StreamEvent[] {
      if (event.data.trim() === "[DONE]") return finish();
      const parsed = parseEventData<ChatChunk>(event.data);
      if (!parsed.ok) return [{ type: "error", failure: parsed.failure }];
      const chunk = parsed.value;
      if (chunk.error !== undefined && chunk.error !== null) return [{ type: "error", failure: classifyStreamError(chunk) }];
      if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
      const mappedUsage = mapOpenAIChatUsage(chunk.usage);
      if (mappedUsage) usage = mappedUsage;
      const events: StreamEvent[] = [];
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? {};
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === "string") events.push(...builder.thinking(reasoning));
        if (typeof delta.content === "string") events.push(...builder.text(delta.content));
        for (const call of delta.tool_calls ?? []) {
          const fragment: { id?: string; name?: string; arguments?: string } = {};
          if (call.id) fragment.id = call.id;
          if (call.function?.name) fragment.name = call.function.name;
          if (call.function?.arguments) fragment.arguments = call.function.arguments;
          builder.toolCall(calls.keyOf(call.index ?? 0, call.id), fragment);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      return events;
    },
    end(): StreamEvent[] {
      if (finishReason === undefined) return [{ type: "error", failure: truncatedFailure() }];
      return finish();
    },
  };
}

/**
 * Keys tool-call fragments. Fragments are joined by `index`, but some
 * servers give every call the same index (or none); a new id at a known
 * index therefore starts a new call instead of gluing two together.
 */
class CallKeys {
  private readonly current = new Map<number, { key: string; id: string | undefined }>();
  private count = 0;

  keyOf(index: number, id: string | undefined): string {
    const known = this.current.get(index);
    if (known && (id === undefined || known.id === undefined || known.id === id)) {
      if (known.id === undefined && id !== undefined) known.id = id;
      return known.key;
    }
    const key = `call-${this.count++}`;
    this.current.set(index, { key, id });
    return key;
  }
}
