/** Builds an `openai_responses` request from a ModelRequest. */
import { attachmentKind, dataUrl, documentText } from "./attachment-parts.ts";
import { EMPTY_ANSWER_TEXT, hasNoAnswer } from "./empty-answer.ts";
import { encodeToolArguments } from "./parse-tool-arguments.ts";
import { promptCacheKey } from "./prompt-cache-key.ts";
import { joinUrl, requestHeaders } from "./request-headers.ts";
import { planSettings } from "./settings-plan.ts";
import type { EncryptedReasoning, HttpRequestSpec, ModelRequest } from "./types.ts";

/**
 * Builds a Responses API request (https://platform.openai.com/docs/api-reference/responses/create).
 * `store: false`: the conversation is ours and is sent whole each time, so
 * reasoning travels as encrypted content: requested with `include`, kept
 * in the session and sent back as `reasoning` items. Tools are sent
 * with `strict: false` because strict mode demands schema shapes
 * (every property required, no extra keys) that user tools need not follow.
 * Encrypted reasoning is asked for only from models that reason: OpenAI
 * refuses the request ("Encrypted content is not supported with this
 * model") from those that do not (settings-plan.ts decides which).
 */
export function buildOpenAIResponsesRequest(request: ModelRequest): HttpRequestSpec {
  const { model } = request;
  const auth: Record<string, string> = model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {};
  const body: Record<string, unknown> = { model: model.wireId };
  if (request.system.trim() !== "") body.instructions = request.system;
  body.input = inputItems(request);
  body.store = false;
  body.stream = true;
  // What the model takes (settings-plan.ts); config validation warns about the rest.
  const plan = planSettings(model);
  if (plan.reasons === true) body.include = ["reasoning.encrypted_content"];
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  const format = request.answerFormat;
  if (format?.mode === "native")
    body.text = { format: { type: "json_schema", name: format.name, schema: format.schema, strict: format.strict } };
  else if (format?.mode === "tool") body.tool_choice = "required";
  if (model.maxTokens !== undefined) body.max_output_tokens = model.maxTokens;
  if (plan.temperature !== undefined) body.temperature = plan.temperature;
  if (plan.topP !== undefined) body.top_p = plan.topP;
  if (plan.reasoningEffort !== undefined) body.reasoning = { effort: plan.reasoningEffort, summary: "auto" };
  const cacheKey = promptCacheKey(request);
  if (cacheKey !== undefined) body.prompt_cache_key = cacheKey;
  return { url: joinUrl(model.baseUrl, "responses"), headers: requestHeaders(request, auth), body };
}

function inputItems(request: ModelRequest): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant" && hasNoAnswer(message)) {
      // Only thinking, or emptied by a hook: the turn stays, saying so. Its reasoning item is left out,
      // because the API refuses a reasoning item without the item that followed it, and the model does
      // not read reasoning from turns before the last prompt anyway.
      items.push({ role: "assistant", content: [{ type: "output_text", text: EMPTY_ANSWER_TEXT }] });
      continue;
    }
    // Consecutive text blocks form one message; calls and results are items of their own, in order.
    // A user's attachments are parts of the message their text is in, in their place.
    let text: string[] = [];
    let parts: Record<string, unknown>[] = [];
    const flushText = () => {
      if (text.length === 0) return;
      parts.push({ type: message.role === "user" ? "input_text" : "output_text", text: text.join("\n\n") });
      text = [];
    };
    const flush = () => {
      flushText();
      if (parts.length === 0) return;
      items.push({ role: message.role, content: parts });
      parts = [];
    };
    for (const block of message.blocks) {
      if (block.type === "thinking") {
        // Only reasoning this protocol produced can go back; it must precede the items that followed it.
        if (message.role === "assistant" && block.encryptedReasoning) {
          flush();
          items.push(reasoningItem(block.thinking, block.encryptedReasoning));
        }
      } else if (block.type === "text") {
        if (block.text !== "") text.push(block.text);
      } else if (block.type === "attachment") {
        if (message.role !== "user") continue;
        const kind = attachmentKind(block);
        if (kind === "text") {
          text.push(documentText(block));
          continue;
        }
        flushText();
        parts.push(
          kind === "image"
            ? { type: "input_image", image_url: dataUrl(block), detail: "auto" }
            : { type: "input_file", filename: fileName(block.name), file_data: dataUrl(block) },
        );
      } else if (block.type === "tool_call") {
        flush();
        items.push({
          type: "function_call",
          call_id: block.toolCallId,
          name: block.toolCallName,
          arguments: encodeToolArguments(block.toolCallArguments),
        });
      } else if (block.type === "tool_result") {
        flush();
        items.push({
          type: "function_call_output",
          call_id: block.toolResultCallId,
          output: block.toolResult.map((part) => part.text).join("\n"),
        });
      }
    }
    flush();
  }
  return items;
}

/** The file name an `input_file` carries: the last part of the path it was attached from. */
function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || "document.pdf";
}

function reasoningItem(summary: string, encrypted: EncryptedReasoning): Record<string, unknown> {
  return {
    type: "reasoning",
    id: encrypted.id,
    summary: summary === "" ? [] : [{ type: "summary_text", text: summary }],
    encrypted_content: encrypted.content,
  };
}
