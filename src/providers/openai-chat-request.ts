/** Builds an `openai_chat_completions` request from a ModelRequest. */
import { attachmentKind, dataUrl, documentText, protocolSends, unsentAttachmentText } from "./attachment-parts.ts";
import { EMPTY_ANSWER_TEXT, hasNoAnswer } from "./empty-answer.ts";
import { encodeToolArguments } from "./parse-tool-arguments.ts";
import { promptCacheKey } from "./prompt-cache-key.ts";
import { joinUrl, requestHeaders } from "./request-headers.ts";
import { planSettings } from "./settings-plan.ts";
import type { Block, HttpRequestSpec, Message, ModelRequest } from "./types.ts";

/**
 * Builds a Chat Completions request (https://platform.openai.com/docs/api-reference/chat/create).
 * Thinking is sent back only when the model says so (`sendThinking`, see
 * reasoningToSendBack): most servers of this protocol reject or ignore
 * reasoning in input messages.
 */
export function buildOpenAIChatRequest(request: ModelRequest): HttpRequestSpec {
  const { model } = request;
  const auth: Record<string, string> = model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {};
  const body: Record<string, unknown> = {
    model: model.wireId,
    messages: chatMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  const format = request.answerFormat;
  if (format?.mode === "native") {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    };
  } else if (format?.mode === "tool") body.tool_choice = "required";
  // What the model takes (settings-plan.ts); config validation warns about the rest.
  const plan = planSettings(model);
  if (model.maxTokens !== undefined)
    body[plan.maxCompletionTokens ? "max_completion_tokens" : "max_tokens"] = model.maxTokens;
  if (plan.temperature !== undefined) body.temperature = plan.temperature;
  if (plan.topP !== undefined) body.top_p = plan.topP;
  if (plan.reasoningEffort !== undefined) body.reasoning_effort = plan.reasoningEffort;
  const cacheKey = promptCacheKey(request);
  if (cacheKey !== undefined) body.prompt_cache_key = cacheKey;
  return { url: joinUrl(model.baseUrl, "chat/completions"), headers: requestHeaders(request, auth), body };
}

function chatMessages(request: ModelRequest): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (request.system.trim() !== "") out.push({ role: "system", content: request.system });
  const withReasoning =
    request.model.sendThinking === true ? reasoningToSendBack(request.messages) : new Set<Message>();
  for (const message of request.messages) {
    if (message.role === "assistant") out.push(assistantMessage(message, withReasoning.has(message)));
    else out.push(...userMessages(message));
  }
  return out;
}

function assistantMessage(message: Message, withReasoning: boolean): Record<string, unknown> {
  const text = joinText(message.blocks);
  const calls = message.blocks.flatMap((block) =>
    block.type === "tool_call"
      ? [
          {
            id: block.toolCallId,
            type: "function",
            function: { name: block.toolCallName, arguments: encodeToolArguments(block.toolCallArguments) },
          },
        ]
      : [],
  );
  const content = calls.length > 0 ? (text === "" ? null : text) : hasNoAnswer(message) ? EMPTY_ANSWER_TEXT : text;
  const out: Record<string, unknown> = { role: "assistant", content };
  // An empty string too: DeepSeek refuses a tool-using turn's message without the field.
  if (withReasoning)
    out.reasoning_content = message.blocks
      .flatMap((block) => (block.type === "thinking" ? [block.thinking] : []))
      .join("");
  if (calls.length > 0) out.tool_calls = calls;
  return out;
}

/**
 * The assistant messages whose thinking goes back as `reasoning_content`:
 * those of every user turn (a prompt and all that answers it, tool rounds
 * included) in which the model called a tool. DeepSeek's thinking mode
 * refuses a request that lacks the reasoning of such a turn, in every later
 * request, and ignores it for turns without calls
 * (https://api-docs.deepseek.com/guides/thinking_mode); Kimi's thinking
 * models refuse a tool-call message without it
 * (https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model).
 * Turns without calls send none, which saves their tokens.
 */
function reasoningToSendBack(messages: Message[]): Set<Message> {
  const out = new Set<Message>();
  let turn: Message[] = [];
  let calledTools = false;
  const close = () => {
    if (calledTools) for (const message of turn) out.add(message);
    turn = [];
    calledTools = false;
  };
  for (const message of messages) {
    if (message.role === "user") {
      // Tool results continue the turn; text from the user starts a new one.
      if (message.blocks.some((block) => block.type === "text" && block.text !== "")) close();
      continue;
    }
    turn.push(message);
    if (message.blocks.some((block) => block.type === "tool_call")) calledTools = true;
  }
  close();
  return out;
}

/**
 * Tool results become `tool` messages (which must directly follow the calls),
 * then any text as a user message. Attachments make its content a list of
 * parts (text documents as text, images as `image_url` data URLs) when an
 * image is among them; with text alone it stays one string, which every
 * server of this protocol takes.
 */
function userMessages(message: Message): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const block of message.blocks) {
    if (block.type === "tool_result") {
      out.push({
        role: "tool",
        tool_call_id: block.toolResultCallId,
        content: block.toolResult.map((part) => part.text).join("\n"),
      });
    }
  }
  const parts: Record<string, unknown>[] = [];
  for (const block of message.blocks) {
    if (block.type === "text" && block.text !== "") parts.push({ type: "text", text: block.text });
    else if (block.type === "attachment") {
      if (!protocolSends("openai_chat_completions", block))
        parts.push({ type: "text", text: unsentAttachmentText(block, "openai_chat_completions") });
      else if (attachmentKind(block) === "image") parts.push({ type: "image_url", image_url: { url: dataUrl(block) } });
      else parts.push({ type: "text", text: documentText(block) });
    }
  }
  if (parts.some((part) => part.type === "image_url")) out.push({ role: "user", content: parts });
  else {
    const text = parts.map((part) => part.text as string).join("\n\n");
    if (text !== "" || out.length === 0) out.push({ role: "user", content: text });
  }
  return out;
}

function joinText(blocks: Block[]): string {
  return blocks.flatMap((block) => (block.type === "text" && block.text !== "" ? [block.text] : [])).join("\n\n");
}
