/**
 * One model request: streams deltas to the front end and hands back the
 * whole answer. A half-streamed answer never leaves this module except as
 * deltas: the caller stores only the complete response.
 */
import type { AssistantResponse, ModelRequest, ProviderFailure } from "../providers/index.ts";
import type { Emit } from "./hook-chain.ts";
import type { ModelPort } from "./ports.ts";

/** The end of one model request. */
export type TurnResult =
  | { kind: "answer"; response: AssistantResponse }
  | { kind: "failed"; failure: ProviderFailure }
  | { kind: "interrupted" };

/** Streams one answer from the model. Never throws. */
export async function requestModel(model: ModelPort, request: ModelRequest, emit: Emit, signal: AbortSignal): Promise<TurnResult> {
  try {
    for await (const event of model.stream(request, signal)) {
      if (signal.aborted) return { kind: "interrupted" };
      switch (event.type) {
        case "text_delta":
          emit({ type: "text_delta", text: event.text });
          break;
        case "thinking_delta":
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
          if (signal.aborted || event.failure.kind === "aborted") return { kind: "interrupted" };
          return { kind: "failed", failure: event.failure };
      }
    }
  } catch (error) {
    if (signal.aborted) return { kind: "interrupted" };
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", failure: { kind: "other", message, retryable: false } };
  }
  if (signal.aborted) return { kind: "interrupted" };
  return { kind: "failed", failure: { kind: "truncated_stream", message: "the model stream ended without an answer", retryable: false } };
}
