/**
 * One model request: streams deltas to the front end and hands back the
 * whole answer. A request interrupted mid-stream hands back what was
 * streamed of its text and thinking (never its half-written tool calls), so
 * the caller can keep the partial answer.
 */
import type { AssistantResponse, ModelRequest, ProviderFailure } from "../providers/index.ts";
import type { Emit } from "./hook-chain.ts";
import type { ModelPort } from "./ports.ts";

/** The end of one model request. */
export type TurnResult =
  | { kind: "answer"; response: AssistantResponse }
  | { kind: "failed"; failure: ProviderFailure }
  | { kind: "interrupted"; partial: PartialAnswer };

/** What an interrupted request had streamed: text and thinking as shown, without any tool call. */
export interface PartialAnswer {
  text: string;
  thinking: string;
}

/** Streams one answer from the model. Never throws. */
export async function requestModel(
  model: ModelPort,
  request: ModelRequest,
  emit: Emit,
  signal: AbortSignal,
): Promise<TurnResult> {
  const partial: PartialAnswer = { text: "", thinking: "" };
  const interrupted: TurnResult = { kind: "interrupted", partial };
  try {
    for await (const event of model.stream(request, signal)) {
      if (signal.aborted) return interrupted;
      switch (event.type) {
        case "text_delta":
          partial.text += event.text;
          emit({ type: "text_delta", text: event.text });
          break;
        case "thinking_delta":
          partial.thinking += event.thinking;
          emit({ type: "thinking_delta", thinking: event.thinking });
          break;
        case "retry":
          emit({ type: "retry", attempt: event.attempt, delayMs: event.delayMs, message: event.failure.message });
          break;
        case "notice":
          emit({ type: "notice", message: event.message });
          break;
        case "tool_call":
          break;
        case "done":
          return { kind: "answer", response: event.response };
        case "error":
          if (signal.aborted || event.failure.kind === "aborted") return interrupted;
          return { kind: "failed", failure: event.failure };
      }
    }
  } catch (error) {
    if (signal.aborted) return interrupted;
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", failure: { kind: "other", message, retryable: false } };
  }
  if (signal.aborted) return interrupted;
  return {
    kind: "failed",
    failure: { kind: "truncated_stream", message: "the model stream ended without an answer", retryable: false },
  };
}
