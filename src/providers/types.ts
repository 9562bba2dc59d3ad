/**
 * Provider-neutral shapes shared by the whole program: the canonical
 * conversation (the same blocks the session file stores), the request a
 * protocol adapter receives, and the events its stream yields.
 *
 * Block and field names match the session file contract (contract.md §6),
 * so a message read from disk is a message sent to a provider, unchanged.
 */

/** The wire protocols Rienda speaks. */
export type ProtocolName = "openai_chat_completions" | "openai_responses" | "anthropic" | "replay";

/** Plain text written by the user or the assistant. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** The assistant's reasoning. `signature` round-trips Anthropic's thinking signature (new). */
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
}

/**
 * A tool call made by the assistant. `toolCallArguments` is the decoded JSON
 * the model sent; when the model sent text that is not JSON, the raw string.
 */
export interface ToolCallBlock {
  type: "tool_call";
  toolCallId: string;
  toolCallName: string;
  toolCallArguments: unknown;
}

/** The result of one tool call; travels in a user message. */
export interface ToolResultBlock {
  type: "tool_result";
  toolResultCallId: string;
  toolResult: TextBlock[];
  toolResultIsError?: boolean;
}

/** Any block of a message. */
export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ToolResultBlock;

/** Token counts reported by the provider for one response. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** Why the model stopped, normalised across protocols. */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other";

/** One message of the conversation. */
export interface Message {
  role: "user" | "assistant";
  blocks: Block[];
}

/** A tool as the model sees it. `parameters` is passed to the provider verbatim. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Effort levels accepted by `thinking_level`. */
export type ThinkingLevel = "minimal" | "low" | "medium" | "high";

/** A model settled from config: where to send requests and how. */
export interface ResolvedModel {
  /** `provider/alias`, as the user wrote it. */
  ref: string;
  provider: string;
  alias: string;
  /** The id sent on the wire. */
  wireId: string;
  protocol: ProtocolName;
  baseUrl: string;
  apiKey: string;
  headers: Record<string, string>;
  sessionHeader?: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  contextWindow?: number;
  thinkingLevel?: ThinkingLevel;
  thinkingMaxTokens?: number;
  /** Replay protocol only: the script file. */
  script?: string;
}

/** Everything an adapter needs for one model request. */
export interface ModelRequest {
  model: ResolvedModel;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  sessionId: string;
}

/** Classified provider failures; retry logic reads the kind, never vendor codes. */
export type ProviderErrorKind =
  | "network"
  | "timeout"
  | "rate_limit"
  | "overloaded"
  | "server"
  | "authentication"
  | "invalid_request"
  | "context_length"
  | "truncated_stream"
  | "empty_answer"
  | "aborted"
  | "other";

/** A provider failure as a value. `retryable` follows contract.md §7. */
export interface ProviderFailure {
  kind: ProviderErrorKind;
  message: string;
  status?: number;
  retryable: boolean;
}

/** The complete assistant message a stream produced. */
export interface AssistantResponse {
  message: Message;
  stopReason: StopReason;
  usage?: Usage;
  responseModel?: string;
}

/**
 * What a model stream yields. A stream never throws: it ends with exactly one
 * `done` or `error` event. `retry` (from the retry wrapper) tells consumers to
 * discard any partial output of the attempt that failed.
 */
export type StreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "retry"; attempt: number; delayMs: number; failure: ProviderFailure }
  | { type: "done"; response: AssistantResponse }
  | { type: "error"; failure: ProviderFailure };

/** A protocol adapter: builds the request, maps the wire stream to events. */
export interface ProtocolAdapter {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}
