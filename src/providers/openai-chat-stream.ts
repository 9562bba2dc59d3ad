/** The `openai_chat_completions` stream mapper: Chat Completions chunks to StreamEvents. */
import { classifyStreamError } from "./classify-stream-error.ts";
import { mapOpenAIChatStopReason } from "./map-openai-chat-stop-reason.ts";
import { mapOpenAIUsage } from "./map-openai-usage.ts";
import { parseEventData } from "./parse-event-data.ts";
import { truncatedFailure } from "./provider-failure.ts";
import { ResponseBuilder } from "./response-builder.ts";
import { TextCallRecovery, type TextCallContext } from "./text-call-recovery.ts";
import type { SseEvent, StreamEvent, StreamMapper, Usage } from "./types.ts";

interface ChatChunk {
  model?: string;
  error?: unknown;
  usage?: unknown;
  choices?: Array<{
    delta?: {
      /** A string; Mistral's Magistral models send a list of `text` and `thinking` parts instead. */
      content?: string | ContentPart[] | null;
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
 * truncated otherwise. Tool-call fragments are joined as CallKeys says.
 */
export function createOpenAIChatStreamMapper(textCalls?: TextCallContext): StreamMapper {
  const builder = new ResponseBuilder();
  const calls = new CallKeys();
  const answerText = textCalls ? new TextCallRecovery(builder, textCalls) : undefined;
  const text = (delta: string): StreamEvent[] => (answerText ? answerText.text(delta) : builder.text(delta));
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  let model: string | undefined;

  const finish = (): StreamEvent[] => {
    const recovery = answerText?.finish();
    const end = builder.finish(mapOpenAIChatStopReason(finishReason, builder.hasToolCalls()), usage, model);
    return recovery ? [...recovery.events, ...end] : end;
  };

  return {
    push(event: SseEvent): StreamEvent[] {
      if (event.data.trim() === "[DONE]") return finish();
      const parsed = parseEventData<ChatChunk>(event.data);
      if (!parsed.ok) return [{ type: "error", failure: parsed.failure }];
      const chunk = parsed.value;
      if (chunk.error !== undefined && chunk.error !== null)
        return [{ type: "error", failure: classifyStreamError(chunk) }];
      if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
      const mappedUsage = mapOpenAIUsage(chunk.usage, "chat_completions");
      if (mappedUsage) usage = mappedUsage;
      const events: StreamEvent[] = [];
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? {};
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === "string") events.push(...builder.thinking(reasoning));
        if (typeof delta.content === "string") events.push(...text(delta.content));
        else if (Array.isArray(delta.content)) events.push(...contentParts(builder, text, delta.content));
        for (const [position, call] of (delta.tool_calls ?? []).entries()) {
          const fragment: { id?: string; name?: string; arguments?: string } = {};
          if (call.id) fragment.id = call.id;
          if (call.function?.name) fragment.name = call.function.name;
          if (call.function?.arguments) fragment.arguments = call.function.arguments;
          // Without an index (Mistral, Kimi), a fragment's place in the list stands for it.
          const index = typeof call.index === "number" ? call.index : position;
          builder.toolCall(calls.keyOf(index, fragment.id, fragment.name), fragment);
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

/** A part of a list-shaped `content` (Mistral): visible text, or thinking made of text parts. */
interface ContentPart {
  type?: string;
  text?: string;
  thinking?: Array<{ type?: string; text?: string }> | string;
}

function contentParts(
  builder: ResponseBuilder,
  text: (delta: string) => StreamEvent[],
  parts: ContentPart[],
): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const part of parts) {
    if (part.type === "text" && typeof part.text === "string") events.push(...text(part.text));
    else if (part.type === "thinking") {
      const pieces =
        typeof part.thinking === "string"
          ? [part.thinking]
          : (part.thinking ?? []).map((piece) => (typeof piece.text === "string" ? piece.text : ""));
      for (const piece of pieces) events.push(...builder.thinking(piece));
    }
  }
  return events;
}

/**
 * Decides which call a tool-call fragment belongs to. Servers differ:
 * OpenAI sends id and name once, then fragments by `index`; Qwen/DashScope
 * repeat `"id": ""` on every fragment; Mistral sends whole calls without
 * `index`; Ollama sends each whole call in one chunk; some servers give
 * every call the same index. So a fragment belongs to the call at its
 * index (without one, its place in the chunk's list) unless it carries an
 * id or a name that differ from that call's own: then it starts a new call.
 * An empty id or name is no id or name at all.
 */
class CallKeys {
  private readonly atIndex = new Map<number, KnownCall>();
  private readonly byId = new Map<string, KnownCall>();
  private count = 0;

  keyOf(index: number, id: string | undefined, name: string | undefined): string {
    const byId = id === undefined ? undefined : this.byId.get(id);
    if (byId) return byId.key;
    const candidate = this.atIndex.get(index);
    if (
      candidate &&
      (id === undefined || candidate.id === undefined) &&
      (name === undefined || candidate.name === undefined || candidate.name === name)
    ) {
      if (id !== undefined) {
        candidate.id = id;
        this.byId.set(id, candidate);
      }
      candidate.name ??= name;
      return candidate.key;
    }
    const call: KnownCall = { key: `call-${this.count++}`, id, name };
    this.atIndex.set(index, call);
    if (id !== undefined) this.byId.set(id, call);
    return call.key;
  }
}

interface KnownCall {
  key: string;
  id: string | undefined;
  name: string | undefined;
}
