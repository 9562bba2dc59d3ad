/**
 * Provider-neutral shapes shared by the whole program: the canonical
 * conversation (the same blocks the session file stores), the request a
 * protocol adapter receives, and the events its stream yields.
 *
 * Block and field names match the session file contract (contract.md §6),
 * so a message read from disk is a message sent to a provider, unchanged.
 */

import type { TextToolCallSetting } from "./text-tool-calls.ts";

/** The wire protocols Rienda speaks. */
export type ProtocolName = "openai_chat_completions" | "openai_responses" | "anthropic" | "replay";

/** Plain text written by the user or the assistant. */
export interface TextBlock {
  type: "text";
  text: string;
}

/**
 * The assistant's reasoning, with what its protocol needs to take it back
 * (all new): Anthropic's `signature`, the encrypted `redactedData` of an
 * Anthropic `redacted_thinking` block (whose `thinking` is empty), and the
 * `encryptedReasoning` of an OpenAI Responses reasoning item, which a
 * stateless conversation (`store: false`) must send back.
 */
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
  redactedData?: string;
  encryptedReasoning?: EncryptedReasoning;
}

/** A Responses reasoning item as the API wants it back: its id and `encrypted_content`. */
export interface EncryptedReasoning {
  id: string;
  content: string;
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

/**
 * Something the user handed the model with a prompt (new): a text file or
 * piped stdin (`text`), or an image or a PDF (`data`, base64 of the bytes).
 * Only user messages carry them; each protocol adapter renders them as its
 * API expects (docs/pipelines.md). Stored inline in the session entry, so a
 * session file is self-contained.
 */
export interface AttachmentBlock {
  type: "attachment";
  /** The path as the user gave it, or `stdin`. */
  name: string;
  /** One of ATTACHMENT_MEDIA_TYPES. */
  mediaType: AttachmentMediaType;
  /** A text attachment's content (`text/plain`). */
  text?: string;
  /** An image's or a PDF's bytes, base64. */
  data?: string;
}

/** The media types an attachment may have: text, the four image formats every protocol takes, PDF. */
export type AttachmentMediaType =
  | "text/plain"
  | "image/png"
  | "image/jpeg"
  | "image/gif"
  | "image/webp"
  | "application/pdf";

/** Every AttachmentMediaType, for readers of stored blocks. */
export const ATTACHMENT_MEDIA_TYPES: readonly AttachmentMediaType[] = [
  "text/plain",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
];

/** Any block of a message. */
export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ToolResultBlock | AttachmentBlock;

/**
 * Token counts reported by the provider for one response. `inputTokens` is
 * the whole prompt as the model saw it, cached parts included, on every
 * protocol (Anthropic reports cache tokens apart; the adapter adds them), so
 * it measures how full the context window is. The cache and reasoning
 * counts are subsets, present only when the provider reports them.
 */
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
  /**
   * An answer cut short while it streamed (new), kept as far as it came: by
   * the user (`user`) or by a run limit (`limit`). Providers send it as any
   * answer; the history tells the model in the next user turn that it was cut.
   */
  interrupted?: AnswerCut;
}

/** Who cut a partial answer short: the user's interrupt or a run limit (--timeout). */
export type AnswerCut = "user" | "limit";

/** A tool as the model sees it. `parameters` is passed to the provider verbatim. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Effort levels accepted by `thinking_level`. */
export type ThinkingLevel = "minimal" | "low" | "medium" | "high";

/**
 * `request_rules` (new): whose request rules a model follows. `auto` reads
 * them from the model id; `as_written` sends every setting as written;
 * `claude_adaptive` and `openai_reasoning` force the rules of Claude 4.7+
 * and of OpenAI's reasoning models on an id Rienda cannot place.
 */
export type RequestRules = "auto" | "as_written" | "claude_adaptive" | "openai_reasoning";

/** `structured_output` (new): how `--schema` asks for the answer, the protocol's own way or as a tool call. */
export type StructuredOutput = "native" | "tool";

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
  /** Where `contextWindow` came from when config.yaml did not give it: the server (server-context-window.ts) or the models.dev snapshot (config/catalogue-figures.ts); absent: config.yaml. */
  contextWindowSource?: string;
  /** When the server was asked (RFC 3339), the answer kept since (server-facts-cache.ts). */
  contextWindowAskedAt?: string;
  /** What the model takes as input, as its local server lists it (server-input.ts); absent: not known. */
  serverInput?: { modalities: readonly string[]; source: string };
  /** The thinking level sent: config.yaml's ThinkingLevel, or any level a provider module's model declares. */
  thinkingLevel?: string;
  thinkingMaxTokens?: number;
  /** A provider module's model: the levels it declares (`off` is always there too); absent for config.yaml models. */
  thinkingModes?: { level: string; maxTokens: number }[];
  /** A provider module's model: whether it reasons. */
  reasoning?: boolean;
  /** A provider module's display name of the model. */
  name?: string;
  /** A provider module's model: the module that declares it (its index.js, or "the built-in module NAME"), named by hints instead of config.yaml keys. */
  declaredIn?: string;
  /** Prompt caching (new): on unless `cache: false`. */
  cache?: boolean;
  /** `request_rules` (new); absent: `auto`. */
  requestRules?: RequestRules;
  /**
   * Chat Completions only (new): send the model's own thinking back as
   * `reasoning_content`, as DeepSeek and Kimi require within a tool-using
   * turn; from `send_thinking`, or the preset's default.
   */
  sendThinking?: boolean;
  /** Prices per million tokens (new), from `cost:`, the preset or the models.dev snapshot; absent: unknown. */
  prices?: ModelPrices;
  /** `structured_output` (new); absent: the protocol's default (structured-output.ts). */
  structuredOutput?: StructuredOutput;
  /** Replay protocol only: the script file. */
  script?: string;
  /** `timeout`, `idle_timeout`, `retries` (new) and the keys that set them; absent: the defaults (request-timing.ts). */
  timing?: RequestTiming;
  /** Where `api_key` came from, so a refused key names what to fix. */
  apiKeySource?: ApiKeySource;
  /** `tool_calls_in_text` (new, Chat Completions); absent: `auto` for a server on this machine, else `off`. */
  toolCallsInText?: TextToolCallSetting;
}

/**
 * How long one model request may wait and how often it is tried. Each key
 * path is the one that set the value, or the provider's key to set when
 * the default applies, so a message can name what to change.
 */
export interface RequestTiming {
  /** No first byte of the answer for this long: the attempt fails as a timeout. */
  timeoutMs?: number;
  /** No byte for this long once the answer started: the attempt fails as a timeout. */
  idleTimeoutMs?: number;
  /** Attempts after the first one (contract §7: 4). */
  retries?: number;
  keys: { timeout: string; idleTimeout: string; retries: string };
}

/** One request's settled timeouts and attempts (request-timing.ts), with the key paths a message names. */
export interface StreamTiming {
  timeoutMs: number;
  idleTimeoutMs: number;
  maxAttempts: number;
  /** The URL is on this machine: a timed-out first byte may be a prompt still being read. */
  local: boolean;
  keys: RequestTiming["keys"];
}

/** Where a provider's key comes from, as config.yaml writes it. */
export type ApiKeySource =
  | { kind: "absent"; path: string }
  | { kind: "written"; path: string }
  /** credentials.json (`rienda auth`), by provider name; `path` is the file. */
  | { kind: "credentials"; path: string; provider: string }
  | { kind: "variables"; path: string; variables: { name: string; state: "set" | "empty" | "unset" }[] };

/**
 * What a model costs, in US dollars per million tokens. Cached reads and
 * cache writes are billed apart by providers that report them; without
 * their own price they cost as much as plain input.
 */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Higher rates for a request whose prompt is longer than a tier's `aboveTokens` (models.dev's context tiers); the highest tier passed applies. */
  tiers?: PriceTier[];
}

/** A model's rates for requests whose prompt (cache included) is longer than `aboveTokens`. */
export interface PriceTier {
  aboveTokens: number;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * How the final answer is asked to follow a JSON Schema (`--schema`, new).
 * `native`: the protocol's own structured output (Chat Completions
 * `response_format`, Responses `text.format`, Anthropic
 * `output_config.format`). `tool`: the answer is a call of the tool
 * `toolName` (already among the request's tools); the request makes the
 * model call a tool (`tool_choice` required, Anthropic's `any`) where the
 * API allows it (not beside Anthropic's thinking).
 */
export type AnswerFormat =
  | { mode: "native"; name: string; schema: Record<string, unknown>; strict: boolean }
  | { mode: "tool"; toolName: string };

/** Everything an adapter needs for one model request. */
export interface ModelRequest {
  model: ResolvedModel;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  sessionId: string;
  /** The answer must follow a schema (`--schema`); absent: free text. */
  answerFormat?: AnswerFormat;
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
  /** How long the provider asked us to wait (`retry-after`), when it said so. */
  retryAfterMs?: number;
  /** Attempts in total worth making for this failure, when fewer than the policy's (a refused local server). */
  maxAttempts?: number;
  /** Where a redirect that was not followed pointed (within-origin.ts). */
  redirectedTo?: string;
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
  /** `attempt` is the 1-based number of the attempt that failed; the next starts after `delayMs`. */
  | { type: "retry"; attempt: number; delayMs: number; failure: ProviderFailure }
  /** Something the user should know about this answer that is no failure (a tool call written as text that was not run). */
  | { type: "notice"; message: string }
  | { type: "done"; response: AssistantResponse }
  | { type: "error"; failure: ProviderFailure };

/** A protocol adapter: builds the request, maps the wire stream to events. */
export interface ProtocolAdapter {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

// ---------------------------------------------------------------------------
// Plumbing between the adapters of this folder; not exported by index.ts.

/** One server-sent event: the `event:` name (if any) and the joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** An HTTP request an adapter wants sent: a JSON POST. */
export interface HttpRequestSpec {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * Turns one protocol's SSE events into StreamEvents. `push` may return a
 * terminal `done` or `error` event, after which nothing more is read; `end`
 * is called when the body ends without one and returns the last events,
 * ending with the terminal one (usually a truncated-stream error).
 */
export interface StreamMapper {
  push(event: SseEvent): StreamEvent[];
  end(): StreamEvent[];
}

/** The subset of `fetch` the adapters use. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What an adapter needs from the outside world; every field is injectable for tests. */
export interface AdapterDeps {
  fetch: FetchLike;
  /** How long a request may wait for its first byte and between bytes, with the keys that set them. */
  timing: StreamTiming;
  /** Reads a text file (the replay script). */
  readTextFile(path: string): Promise<string>;
}
