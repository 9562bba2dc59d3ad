/**
 * Turns entries into lines of the session file. Every object is rebuilt
 * field by field in contract order, so nothing but the format reaches disk
 * (no stray properties of a caller's object) and every line is one
 * `JSON.stringify` away from a whole, newline-terminated entry.
 */
import type { Block, Usage } from "../providers/types.ts";
import type { SessionEntry, SessionHeader, SwitchEntry } from "./types.ts";

/** One whole line (with its `\n`) for the header or any entry. */
export function encodeEntry(entry: SessionHeader | SessionEntry): string {
  return `${JSON.stringify(storedForm(entry))}\n`;
}

function storedForm(entry: SessionHeader | SessionEntry): Record<string, unknown> {
  switch (entry.kind) {
    case "header":
      return {
        kind: "header",
        version: entry.version,
        id: entry.id,
        createdAt: entry.createdAt,
        agent: entry.agent,
        model: entry.model,
        workdir: entry.workdir,
        parentSession: entry.parentSession,
        parentCallId: entry.parentCallId,
        forkedFrom: entry.forkedFrom,
        forkedAt: entry.forkedAt,
      };
    case "message":
      return {
        kind: "message",
        id: entry.id,
        parentId: entry.parentId,
        createdAt: entry.createdAt,
        role: entry.role,
        blocks: entry.blocks.map(storedBlock),
        responseModel: entry.responseModel,
        responseStopReason: entry.responseStopReason,
        responseUsage: entry.responseUsage === undefined ? undefined : storedUsage(entry.responseUsage),
        responseCost: entry.responseCost,
        interrupted: entry.interrupted,
      };
    case "leaf":
      return { kind: "leaf", targetId: entry.targetId, createdAt: entry.createdAt };
    case "interruption":
      return {
        kind: "interruption",
        id: entry.id,
        parentId: entry.parentId,
        createdAt: entry.createdAt,
        ...(entry.reason ? { reason: entry.reason } : {}),
      };
    case "title":
      return { kind: "title", createdAt: entry.createdAt, title: entry.title };
    case "agent":
    case "model":
    case "thinking":
      return storedSwitch(entry);
    case "compaction":
      return {
        kind: "compaction",
        id: entry.id,
        parentId: entry.parentId,
        createdAt: entry.createdAt,
        summary: entry.summary,
        keptId: entry.keptId,
        tokensBefore: entry.tokensBefore,
        responseModel: entry.responseModel,
        responseUsage: entry.responseUsage === undefined ? undefined : storedUsage(entry.responseUsage),
      };
  }
}

/**
 * A switch in the Go Rienda's shape (go-current.md §5); one read in the
 * shape earlier versions of ours wrote keeps that shape (a fork copies it),
 * so it keeps hanging beside the branch as it did.
 */
function storedSwitch(entry: SwitchEntry): Record<string, unknown> {
  const link = { kind: entry.kind, id: entry.id, parentId: entry.parentId, createdAt: entry.createdAt };
  switch (entry.kind) {
    case "thinking":
      return { ...link, thinkingLevel: entry.thinkingLevel };
    case "agent":
      return entry.beside
        ? { ...link, agent: entry.agentId, previousAgent: entry.previousAgentId }
        : { ...link, agentId: entry.agentId, previousAgentId: entry.previousAgentId };
    case "model":
      return entry.beside
        ? { ...link, model: entry.modelRef, previousModel: entry.previousModelRef }
        : { ...link, modelRef: entry.modelRef, previousModelRef: entry.previousModelRef };
  }
}

function storedBlock(block: Block): Record<string, unknown> {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return {
        type: "thinking",
        thinking: block.thinking,
        signature: block.signature,
        redactedData: block.redactedData,
        encryptedReasoning:
          block.encryptedReasoning === undefined
            ? undefined
            : { id: block.encryptedReasoning.id, content: block.encryptedReasoning.content },
      };
    case "tool_call":
      return {
        type: "tool_call",
        toolCallId: block.toolCallId,
        toolCallName: block.toolCallName,
        toolCallArguments: block.toolCallArguments ?? {},
      };
    case "tool_result":
      return {
        type: "tool_result",
        toolResultCallId: block.toolResultCallId,
        toolResult: block.toolResult.map((b) => ({ type: "text", text: b.text })),
        toolResultIsError: block.toolResultIsError,
      };
    case "attachment":
      return { type: "attachment", name: block.name, mediaType: block.mediaType, text: block.text, data: block.data };
  }
}

function storedUsage(usage: Usage): Record<string, unknown> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    reasoningTokens: usage.reasoningTokens,
  };
}
