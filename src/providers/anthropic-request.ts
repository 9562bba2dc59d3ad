/** Builds an `anthropic` (Messages API) request from a ModelRequest. */
import { attachmentKind, documentText } from "./attachment-parts.ts";
import { EMPTY_ANSWER_TEXT, hasNoAnswer } from "./empty-answer.ts";
import { joinUrl, requestHeaders, splitQuery } from "./request-headers.ts";
import { planSettings } from "./settings-plan.ts";
import type { HttpRequestSpec, Message, ModelRequest } from "./types.ts";

/** `max_tokens` is required by the Messages API; this is used when the model sets none. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/**
 * Builds a Messages API request (https://docs.anthropic.com/en/api/messages).
 * Tool results travel as `tool_result` blocks at the start of a user
 * message; thinking blocks go back only with their signature (Anthropic
 * rejects unsigned ones, e.g. from another protocol after a model switch),
 * redacted thinking with its encrypted data;
 * empty text blocks are dropped because the API refuses them, and an
 * answer left with no text and no call says so (EMPTY_ANSWER_TEXT), so
 * user and assistant turns still alternate.
 */
export function buildAnthropicRequest(request: ModelRequest): HttpRequestSpec {
  const { model } = request;
  const own: Record<string, string> = { "anthropic-version": "2023-06-01" };
  if (model.apiKey) own["x-api-key"] = model.apiKey;
  const budget = model.thinkingMaxTokens;
  // Without an explicit max_tokens the budget must still fit below it, as the API requires; with
  // adaptive thinking (which counts toward max_tokens too) the budget still sizes the room left for it.
  const maxTokens =
    model.maxTokens ??
    (budget !== undefined && budget >= ANTHROPIC_DEFAULT_MAX_TOKENS
      ? budget + ANTHROPIC_DEFAULT_MAX_TOKENS
      : ANTHROPIC_DEFAULT_MAX_TOKENS);
  const body: Record<string, unknown> = { model: model.wireId, max_tokens: maxTokens };
  const cache = model.cache !== false;
  const messages = request.messages.map(anthropicMessage).filter((message) => message.content.length > 0);
  const tools = request.tools.map(
    (tool): Record<string, unknown> => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }),
  );
  if (cache) markCacheBreakpoints(tools, messages);
  if (request.system.trim() !== "")
    body.system = cache ? [{ type: "text", text: request.system, cache_control: EPHEMERAL }] : request.system;
  body.messages = messages;
  body.stream = true;
  if (tools.length > 0) body.tools = tools;
  // What the model's generation takes (settings-plan.ts); config validation warns about the rest.
  const plan = planSettings(model);
  if (plan.temperature !== undefined) body.temperature = plan.temperature;
  if (plan.topP !== undefined) body.top_p = plan.topP;
  if (plan.thinking !== undefined) body.thinking = plan.thinking;
  const format = request.answerFormat;
  const outputConfig: Record<string, unknown> = {};
  if (plan.effort !== undefined) outputConfig.effort = plan.effort;
  if (format?.mode === "native") outputConfig.format = { type: "json_schema", schema: format.schema };
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  // The API refuses a forced tool beside thinking; the system prompt still asks for the tool then.
  if (format?.mode === "tool" && (plan.thinking === undefined || plan.thinking.type === "disabled"))
    body.tool_choice = { type: "any" };
  return { url: anthropicUrl(model.baseUrl), headers: withBetas(requestHeaders(request, own), plan.betas ?? []), body };
}

/** Adds `betas` to the `anthropic-beta` header, keeping those the provider's `headers` name. */
function withBetas(headers: Record<string, string>, betas: string[]): Record<string, string> {
  if (betas.length === 0) return headers;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === "anthropic-beta") ?? "anthropic-beta";
  const written = (headers[name] ?? "")
    .split(",")
    .map((beta) => beta.trim())
    .filter((beta) => beta !== "");
  return { ...headers, [name]: [...new Set([...written, ...betas])].join(",") };
}

/** `{base}/v1/messages`, or `{base}/messages` when the base already ends in `/v1` (contract §7). */
export function anthropicUrl(baseUrl: string): string {
  const base = splitQuery(baseUrl).head.replace(/\/+$/, "");
  return joinUrl(baseUrl, /\/v1$/.test(base) ? "messages" : "v1/messages");
}

const EPHEMERAL = Object.freeze({ type: "ephemeral" });

/**
 * Prompt caching (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
 * the cache holds the prefix up to a `cache_control` breakpoint, in the
 * order tools, system, messages; at most 4 breakpoints. We mark the last
 * tool and the system prompt (stable for the whole run), and the last
 * block of the two newest user messages: the newest writes this turn's
 * prefix, and the one before it is exactly the prefix the previous request
 * wrote, so it is read back however many blocks the last turn added.
 */
function markCacheBreakpoints(tools: Record<string, unknown>[], messages: AnthropicMessage[]): void {
  const lastTool = tools[tools.length - 1];
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < 2; i--) {
    const message = messages[i];
    if (message?.role !== "user") continue;
    const last = message.content[message.content.length - 1];
    if (last) last.cache_control = EPHEMERAL;
    marked++;
  }
}

interface AnthropicMessage {
  role: "user" | "assistant";
  content: Record<string, unknown>[];
}

function anthropicMessage(message: Message): AnthropicMessage {
  const content: Record<string, unknown>[] = [];
  if (message.role === "user") {
    for (const block of message.blocks) {
      if (block.type !== "tool_result") continue;
      const text = block.toolResult.map((part) => part.text).join("\n");
      const result: Record<string, unknown> = { type: "tool_result", tool_use_id: block.toolResultCallId };
      if (text !== "") result.content = text;
      if (block.toolResultIsError) result.is_error = true;
      content.push(result);
    }
  }
  for (const block of message.blocks) {
    if (block.type === "text") {
      // The API refuses text blocks that are empty or only whitespace.
      if (block.text.trim() !== "") content.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (message.role !== "assistant") continue;
      if (block.redactedData) content.push({ type: "redacted_thinking", data: block.redactedData });
      else if (block.signature)
        content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
    } else if (block.type === "tool_call") {
      content.push({
        type: "tool_use",
        id: block.toolCallId,
        name: block.toolCallName,
        input: objectInput(block.toolCallArguments),
      });
    } else if (block.type === "attachment" && message.role === "user") {
      const kind = attachmentKind(block);
      if (kind === "text") content.push({ type: "text", text: documentText(block) });
      else
        content.push({
          type: kind === "image" ? "image" : "document",
          source: { type: "base64", media_type: block.mediaType, data: block.data ?? "" },
        });
    }
  }
  // An answer with no text and no call (only thinking, or emptied by a hook) still takes its turn, after its thinking.
  if (message.role === "assistant" && hasNoAnswer(message)) content.push({ type: "text", text: EMPTY_ANSWER_TEXT });
  return { role: message.role, content };
}

/** `input` must be an object; arguments the model garbled go back as `{}` (the paired error result tells the story). */
function objectInput(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}
