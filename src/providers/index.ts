/**
 * Providers: the only home of vendor knowledge. Turns a canonical
 * ModelRequest into one streaming HTTP request of the model's protocol and
 * the wire stream back into StreamEvents, with the retries of contract §7.
 *
 * Invariants: a model stream never throws and ends with exactly one `done`
 * or `error` event; a `retry` event means "discard the partial output of the
 * attempt that failed"; an abort cancels the request at once; no `tools`
 * field is sent when there are no tools. Adapters are chosen from the
 * explicit map below, never registered by side effect.
 *
 * Must not import other folders of src/ (only platform-free libraries and
 * `node:` modules) or print anything. The one module-level state is
 * server-context-window.ts's memo of what each local server answered (asked
 * once per process, so a chat's turns and its subagents share it).
 */
import { readFile } from "node:fs/promises";
import { createAnthropicAdapter } from "./anthropic.ts";
import { directForLoopback } from "./direct-fetch.ts";
import { explainFailure } from "./explain-failure.ts";
import { createOpenAIChatAdapter } from "./openai-chat.ts";
import { createOpenAIResponsesAdapter } from "./openai-responses.ts";
import { createReplayAdapter } from "./replay.ts";
import { streamTiming } from "./request-timing.ts";
import { abortableSleep, DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from "./retry.ts";
import type { AdapterDeps, FetchLike, ModelRequest, ProtocolAdapter, ProtocolName, StreamEvent } from "./types.ts";

export type {
  AnswerCut,
  AnswerFormat,
  AttachmentBlock,
  AttachmentMediaType,
  StructuredOutput,
  AssistantResponse,
  FetchLike,
  Block,
  Message,
  ModelRequest,
  ProtocolAdapter,
  ProtocolName,
  ProviderErrorKind,
  ProviderFailure,
  ResolvedModel,
  StopReason,
  StreamEvent,
  TextBlock,
  ThinkingBlock,
  EncryptedReasoning,
  ModelPrices,
  PriceTier,
  RequestRules,
  ThinkingLevel,
  ToolCallBlock,
  ToolResultBlock,
  ToolSpec,
  Usage,
} from "./types.ts";
export { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.ts";
export { costOf } from "./cost.ts";
export { attachmentKind, protocolSends, type AttachmentKind } from "./attachment-parts.ts";
export { fitsStrictMode, structuredOutputOf, wireSchema, type WireSchema } from "./structured-output.ts";
export { ATTACHMENT_MEDIA_TYPES } from "./types.ts";
export { planSettings } from "./settings-plan.ts";
export { parseReplayScript, type ReplayTurn } from "./replay-script.ts";
export {
  findLocalServers,
  servedModels,
  startHintFor,
  KNOWN_LOCAL_SERVERS,
  type KnownLocalServer,
  type ServedModels,
} from "./local-servers.ts";
export { isLocalUrl } from "./describe-network-error.ts";
export { learnContextWindow } from "./server-context-window.ts";
export { contextWindowInfo, contextWindowText, type ContextWindowInfo } from "./context-window-text.ts";
export { TEXT_TOOL_CALL_SETTINGS, type TextToolCallSetting } from "./text-tool-calls.ts";

/** The protocol → adapter map: the one place that says who speaks what. */
const ADAPTERS: Readonly<Record<ProtocolName, (deps: AdapterDeps) => ProtocolAdapter>> = {
  openai_chat_completions: createOpenAIChatAdapter,
  openai_responses: createOpenAIResponsesAdapter,
  anthropic: createAnthropicAdapter,
  replay: createReplayAdapter,
};

/** Options of one model stream; everything but `signal` exists for tests. */
export interface StreamModelOptions {
  /** Cancels the request (and any retry wait) at once. */
  signal?: AbortSignal;
  fetch?: FetchLike;
  /** Replaces both the first-byte and the idle timeout (tests). */
  idleTimeoutMs?: number;
  readTextFile?: (path: string) => Promise<string>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  retryPolicy?: Partial<RetryPolicy>;
}

/**
 * Streams one model answer for `request` with the protocol of
 * `request.model`, retrying as contract §7 says. Never throws; the last
 * event is always exactly one `done` or `error`.
 */
export function streamModel(request: ModelRequest, options: StreamModelOptions = {}): AsyncIterable<StreamEvent> {
  const signal = options.signal ?? new AbortController().signal;
  const deps: AdapterDeps = {
    fetch: options.fetch ?? directForLoopback,
    timing: streamTiming(request.model, options.idleTimeoutMs),
    readTextFile: options.readTextFile ?? ((path) => readFile(path, "utf8")),
  };
  const factory = ADAPTERS[request.model.protocol];
  if (!factory) return unknownProtocol(request);
  const adapter = factory(deps);
  const events = withRetries(() => adapter.stream(request, signal), signal, {
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: deps.timing.maxAttempts, ...options.retryPolicy },
  });
  return explained(events, request);
}

/** Names the provider and the config key to fix in the final failure. */
async function* explained(events: AsyncIterable<StreamEvent>, request: ModelRequest): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    yield event.type === "error" ? { type: "error", failure: explainFailure(event.failure, request.model) } : event;
  }
}

/** A model client bound to `options`: `stream(request, signal)`, the shape the engine's model port expects. */
export function createModelClient(options: Omit<StreamModelOptions, "signal"> = {}): {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
} {
  return { stream: (request, signal) => streamModel(request, { ...options, signal }) };
}

async function* unknownProtocol(request: ModelRequest): AsyncGenerator<StreamEvent> {
  yield {
    type: "error",
    failure: {
      kind: "invalid_request",
      retryable: false,
      message: `model "${request.model.ref}" uses unknown protocol "${String(request.model.protocol)}"`,
    },
  };
}
