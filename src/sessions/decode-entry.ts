/**
 * Turns parsed lines of a session file into typed entries. Lenient where the
 * earlier Go Rienda wrote more than we keep (`thinkingSignature`, `itemId`,
 * zero fields omitted), strict where a wrong value would corrupt the
 * conversation (a message without id, role or blocks): that is an error
 * naming the file and the line.
 */
import { RiendaError } from "../errors.ts";
import {
  ATTACHMENT_MEDIA_TYPES,
  type AttachmentMediaType,
  type Block,
  type StopReason,
  type TextBlock,
  type Usage,
} from "../providers/types.ts";
import { headerValueProblem } from "./header-problem.ts";
import { firstString, isRecord, str } from "./json-fields.ts";
import {
  SESSION_FORMAT_VERSION,
  type AgentEntry,
  type ModelEntry,
  type SessionEntry,
  type SessionHeader,
} from "./types.ts";

/** An entry of a kind we do not know that still carries an id: later entries may hang from it. */
export interface PassThroughEntry {
  kind: "pass-through";
  id: string;
  parentId: string | null;
}

/** Where a line came from, for error messages. */
export interface LineOrigin {
  path: string;
  line: number;
}

/** Reads line 1; anything but a version-1 header is an error. */
export function decodeHeader(value: unknown, path: string): SessionHeader {
  const wrong = headerValueProblem(value);
  if (wrong || !isRecord(value))
    throw new RiendaError("session", `session file ${path}: ${wrong?.problem ?? "line 1 is not a session header"}`);
  return {
    kind: "header",
    version: SESSION_FORMAT_VERSION,
    id: str(value.id),
    createdAt: str(value.createdAt),
    agent: str(value.agent),
    model: str(value.model),
    workdir: str(value.workdir),
    // A session cannot be its own parent (list-sessions.ts reads such a header the same way).
    ...(typeof value.parentSession === "string" && value.parentSession !== "" && value.parentSession !== value.id
      ? { parentSession: value.parentSession }
      : {}),
    ...(typeof value.parentCallId === "string" && value.parentCallId !== "" && value.parentSession !== value.id
      ? { parentCallId: value.parentCallId }
      : {}),
    ...(typeof value.forkedFrom === "string" && value.forkedFrom !== "" ? { forkedFrom: value.forkedFrom } : {}),
    ...(typeof value.forkedFrom === "string" && value.forkedFrom !== ""
      ? { forkedAt: typeof value.forkedAt === "string" && value.forkedAt !== "" ? value.forkedAt : null }
      : {}),
  };
}

/**
 * Reads one entry line. Returns null for lines to ignore (unknown kinds
 * without an id), a PassThroughEntry for unknown kinds with an id and for
 * switches without a value (later entries may hang from them).
 */
export function decodeEntry(value: unknown, origin: LineOrigin): SessionEntry | PassThroughEntry | null {
  if (!isRecord(value)) return null;
  const fail = (problem: string) =>
    new RiendaError("session", `session file ${origin.path}, line ${origin.line}: ${problem}`);
  switch (value.kind) {
    case "message": {
      const id = requireId(value, fail);
      if (value.role !== "user" && value.role !== "assistant") throw fail(`message ${id} has no valid role`);
      if (!Array.isArray(value.blocks)) throw fail(`message ${id} has no blocks`);
      const entry: SessionEntry = {
        kind: "message",
        id,
        parentId: parentOf(value),
        createdAt: str(value.createdAt),
        role: value.role,
        blocks: decodeBlocks(value.blocks),
      };
      if (typeof value.responseModel === "string" && value.responseModel !== "")
        entry.responseModel = value.responseModel;
      if (typeof value.responseStopReason === "string" && value.responseStopReason !== "") {
        entry.responseStopReason = value.responseStopReason as StopReason;
      }
      const usage = decodeUsage(value.responseUsage);
      if (usage) entry.responseUsage = usage;
      if (typeof value.responseCost === "number" && Number.isFinite(value.responseCost) && value.responseCost >= 0)
        entry.responseCost = value.responseCost;
      // Only an answer can be cut short; a mark on a user message is ignored.
      if (entry.role === "assistant" && (value.interrupted === "user" || value.interrupted === "limit"))
        entry.interrupted = value.interrupted;
      return entry;
    }
    case "compaction": {
      const id = requireId(value, fail);
      if (typeof value.summary !== "string") throw fail(`compaction ${id} has no summary`);
      if (typeof value.keptId !== "string" || value.keptId === "") throw fail(`compaction ${id} has no keptId`);
      const entry: SessionEntry = {
        kind: "compaction",
        id,
        parentId: parentOf(value),
        createdAt: str(value.createdAt),
        summary: value.summary,
        keptId: value.keptId,
      };
      if (typeof value.tokensBefore === "number") entry.tokensBefore = value.tokensBefore;
      if (typeof value.responseModel === "string" && value.responseModel !== "")
        entry.responseModel = value.responseModel;
      const usage = decodeUsage(value.responseUsage);
      if (usage) entry.responseUsage = usage;
      return entry;
    }
    case "interruption": {
      const id = str(value.id);
      if (id === "") return null;
      const entry: SessionEntry = {
        kind: "interruption",
        id,
        parentId: parentOf(value),
        createdAt: str(value.createdAt),
      };
      if (value.reason === "error" || value.reason === "limit") entry.reason = value.reason;
      return entry;
    }
    case "leaf": {
      const target = value.targetId;
      return {
        kind: "leaf",
        targetId: typeof target === "string" && target !== "" ? target : null,
        createdAt: str(value.createdAt),
      };
    }
    case "title":
      return { kind: "title", createdAt: str(value.createdAt), title: str(value.title) };
    case "agent":
      return decodeSwitch(value, "agent", ["agentId", "previousAgentId"], ["agent", "previousAgent"]);
    case "model":
      return decodeSwitch(value, "model", ["modelRef", "previousModelRef"], ["model", "previousModel"]);
    case "thinking": {
      // Only the Go shape exists; an entry without a level is of no use but may still be linked to.
      if (typeof value.thinkingLevel !== "string") return passThrough(value);
      return {
        kind: "thinking",
        id: str(value.id),
        parentId: parentOf(value),
        createdAt: str(value.createdAt),
        thinkingLevel: value.thinkingLevel,
      };
    }
    default:
      return passThrough(value);
  }
}

/** Canonical blocks from stored ones; block types this version does not know are dropped. */
export function decodeBlocks(stored: unknown[]): Block[] {
  const blocks: Block[] = [];
  for (const raw of stored) {
    if (!isRecord(raw)) continue;
    switch (raw.type) {
      case "text":
        blocks.push({ type: "text", text: str(raw.text) });
        break;
      case "thinking": {
        const block: Block = { type: "thinking", thinking: str(raw.thinking) };
        // Go Rienda stored the Anthropic signature as `thinkingSignature`.
        const signature = firstString(raw.signature, raw.thinkingSignature);
        if (signature !== undefined) block.signature = signature;
        if (typeof raw.redactedData === "string" && raw.redactedData !== "") block.redactedData = raw.redactedData;
        const encrypted = raw.encryptedReasoning;
        if (isRecord(encrypted) && typeof encrypted.id === "string" && typeof encrypted.content === "string") {
          block.encryptedReasoning = { id: encrypted.id, content: encrypted.content };
        }
        blocks.push(block);
        break;
      }
      case "tool_call":
        blocks.push({
          type: "tool_call",
          toolCallId: str(raw.toolCallId),
          toolCallName: str(raw.toolCallName),
          toolCallArguments: raw.toolCallArguments ?? {},
        });
        break;
      case "tool_result": {
        const block: Block = {
          type: "tool_result",
          toolResultCallId: str(raw.toolResultCallId),
          toolResult: Array.isArray(raw.toolResult)
            ? raw.toolResult.filter(isTextBlock).map((b) => ({ type: "text", text: str(b.text) }))
            : [],
        };
        if (typeof raw.toolResultIsError === "boolean") block.toolResultIsError = raw.toolResultIsError;
        blocks.push(block);
        break;
      }
      case "attachment": {
        // One that is not whole (an unknown type, no content) is dropped like an unknown block: it cannot be sent.
        const mediaType = raw.mediaType as AttachmentMediaType;
        if (!ATTACHMENT_MEDIA_TYPES.includes(mediaType)) break;
        const block: Block = { type: "attachment", name: str(raw.name), mediaType };
        if (mediaType === "text/plain") {
          if (typeof raw.text !== "string") break;
          block.text = raw.text;
        } else {
          if (typeof raw.data !== "string") break;
          block.data = raw.data;
        }
        blocks.push(block);
        break;
      }
      default:
        break;
    }
  }
  return blocks;
}

function decodeUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const usage: Usage = { inputTokens: num(value.inputTokens), outputTokens: num(value.outputTokens) };
  if (typeof value.cacheReadTokens === "number") usage.cacheReadTokens = value.cacheReadTokens;
  if (typeof value.cacheWriteTokens === "number") usage.cacheWriteTokens = value.cacheWriteTokens;
  if (typeof value.reasoningTokens === "number") usage.reasoningTokens = value.reasoningTokens;
  return usage;
}

/**
 * An agent or model switch in either shape: the Go Rienda's (`agentId`,
 * `modelRef`: on the branch), or the one earlier versions of ours wrote
 * (`agent`, `model`: beside it). One without a value is only linked to.
 */
function decodeSwitch(
  value: Record<string, unknown>,
  kind: "agent" | "model",
  go: [string, string],
  older: [string, string],
): AgentEntry | ModelEntry | PassThroughEntry | null {
  const onBranch = firstString(value[go[0]]);
  const beside = onBranch === undefined ? firstString(value[older[0]]) : undefined;
  const current = onBranch ?? beside;
  if (current === undefined) return passThrough(value);
  const previous = firstString(value[go[1]], value[older[1]]) ?? "";
  const link = { id: str(value.id), parentId: parentOf(value), createdAt: str(value.createdAt) };
  // Without an id nothing can hang from it: it can only be read as hanging beside its parent.
  const placement = beside !== undefined || link.id === "" ? { beside: true as const } : {};
  return kind === "agent"
    ? { kind, ...link, agentId: current, previousAgentId: previous, ...placement }
    : { kind, ...link, modelRef: current, previousModelRef: previous, ...placement };
}

function passThrough(value: Record<string, unknown>): PassThroughEntry | null {
  return typeof value.id === "string" && value.id !== ""
    ? { kind: "pass-through", id: value.id, parentId: parentOf(value) }
    : null;
}

function requireId(value: Record<string, unknown>, fail: (problem: string) => RiendaError): string {
  if (typeof value.id !== "string" || value.id === "") throw fail(`a ${String(value.kind)} entry has no id`);
  return value.id;
}

function parentOf(value: Record<string, unknown>): string | null {
  return typeof value.parentId === "string" && value.parentId !== "" ? value.parentId : null;
}

function isTextBlock(value: unknown): value is TextBlock {
  return isRecord(value) && value.type === "text";
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
