/** Assembles one assistant message from stream deltas, for every protocol. */
import { parseToolArguments } from "./parse-tool-arguments.ts";
import type {
  AssistantResponse,
  Block,
  EncryptedReasoning,
  StopReason,
  StreamEvent,
  ThinkingBlock,
  Usage,
} from "./types.ts";

interface PendingCall {
  id: string;
  name: string;
  raw: string;
}

type Part = { type: "text"; text: string } | ThinkingPart | { type: "call"; call: PendingCall };

type ThinkingPart = {
  type: "thinking";
  thinking: string;
  signature?: string;
  redactedData?: string;
  encryptedReasoning?: EncryptedReasoning;
};

/**
 * Assembles one assistant message from stream deltas, keeping blocks in the
 * order they arrived. Every adapter funnels its wire deltas through one of
 * these, so "what a response is" is decided in one place. Tool calls are
 * keyed by the protocol's own handle (an index or an item id) because their
 * id and name may arrive after their first argument fragment.
 */
export class ResponseBuilder {
  private readonly parts: Part[] = [];
  private readonly calls = new Map<string, PendingCall>();
  private split = false;

  /** The next text or thinking delta starts a new block (Anthropic content blocks). */
  beginBlock(): void {
    this.split = true;
  }

  /** Appends visible text; returns the event to forward. */
  text(delta: string): StreamEvent[] {
    if (delta === "") return [];
    const last = this.lastPart();
    if (last?.type === "text" && !this.split) last.text += delta;
    else this.parts.push({ type: "text", text: delta });
    this.split = false;
    return [{ type: "text_delta", text: delta }];
  }

  /** Appends reasoning text; returns the event to forward. */
  thinking(delta: string): StreamEvent[] {
    if (delta === "") return [];
    this.thinkingPart().thinking += delta;
    return [{ type: "thinking_delta", thinking: delta }];
  }

  /** Attaches (appends to) the signature of the current thinking block. */
  signature(delta: string): void {
    if (delta === "") return;
    const part = this.thinkingPart();
    part.signature = (part.signature ?? "") + delta;
  }

  /** Attaches what the protocol needs to take the current thinking block back (a new block after `beginBlock`). */
  thinkingData(data: { redactedData?: string; encryptedReasoning?: EncryptedReasoning }): void {
    const part = this.thinkingPart();
    if (data.redactedData !== undefined) part.redactedData = data.redactedData;
    if (data.encryptedReasoning !== undefined) part.encryptedReasoning = data.encryptedReasoning;
  }

  /** Records a tool call fragment: any of id, name and an arguments piece. */
  toolCall(key: string, fragment: { id?: string; name?: string; arguments?: string }): void {
    let call = this.calls.get(key);
    if (!call) {
      call = { id: "", name: "", raw: "" };
      this.calls.set(key, call);
      this.parts.push({ type: "call", call });
    }
    if (fragment.id) call.id = fragment.id;
    if (fragment.name) call.name = call.name === "" ? fragment.name : call.name;
    if (fragment.arguments) call.raw += fragment.arguments;
    this.split = true;
  }

  /** Replaces a call's arguments with the complete text some protocols send at the end. */
  toolCallArguments(key: string, complete: string): void {
    const call = this.calls.get(key);
    if (call) call.raw = complete;
  }

  /** True once any tool call has started. */
  hasToolCalls(): boolean {
    return this.calls.size > 0;
  }

  /** Ends the message: the tool-call events in order, then `done`. */
  finish(stopReason: StopReason, usage: Usage | undefined, responseModel: string | undefined): StreamEvent[] {
    const blocks: Block[] = [];
    const events: StreamEvent[] = [];
    let unnamed = 0;
    for (const part of this.parts) {
      if (part.type === "text") blocks.push({ type: "text", text: part.text });
      else if (part.type === "thinking") {
        const block = thinkingBlock(part);
        if (block) blocks.push(block);
      } else {
        // A call id is required to pair the result; a server that omits it gets a stable one.
        const id = part.call.id || `call_${++unnamed}`;
        const args = parseToolArguments(part.call.raw);
        blocks.push({ type: "tool_call", toolCallId: id, toolCallName: part.call.name, toolCallArguments: args });
        events.push({ type: "tool_call", id, name: part.call.name, arguments: args });
      }
    }
    const response: AssistantResponse = { message: { role: "assistant", blocks }, stopReason };
    if (usage) response.usage = usage;
    if (responseModel) response.responseModel = responseModel;
    events.push({ type: "done", response });
    return events;
  }

  private lastPart(): Part | undefined {
    return this.parts[this.parts.length - 1];
  }

  private thinkingPart(): ThinkingPart {
    const last = this.lastPart();
    if (last?.type === "thinking" && !this.split) return last;
    const part: ThinkingPart = { type: "thinking", thinking: "" };
    this.parts.push(part);
    this.split = false;
    return part;
  }
}

/** The stored block of a thinking part; none when it holds nothing at all. */
function thinkingBlock(part: ThinkingPart): ThinkingBlock | undefined {
  if (
    part.thinking === "" &&
    part.signature === undefined &&
    part.redactedData === undefined &&
    part.encryptedReasoning === undefined
  )
    return undefined;
  const block: ThinkingBlock = { type: "thinking", thinking: part.thinking };
  if (part.signature !== undefined) block.signature = part.signature;
  if (part.redactedData !== undefined) block.redactedData = part.redactedData;
  if (part.encryptedReasoning !== undefined) block.encryptedReasoning = part.encryptedReasoning;
  return block;
}
