/**
 * Where a conversation continues "at" an earlier entry (`--at ID`, the
 * chat's `/tree`): the entry the next prompt hangs from. After an answer (an
 * assistant message that calls no tool) or a compaction, the next prompt
 * follows it; at a prompt, the next prompt takes that prompt's place (it
 * hangs from the prompt's parent: an edited prompt, a branch beside the old
 * one). An assistant message that calls tools, or the tool results after it,
 * cannot be followed by a prompt without breaking the call/result pairs
 * every provider checks, so they are refused with a way out.
 */
import { RiendaError } from "../errors.ts";
import type { BranchEntry } from "./session-tree.ts";

/** The entry the next message hangs from (null: a new root) to continue at `id`; throws RiendaError naming why not. */
export function branchPoint(
  lookup: (id: string) => BranchEntry | undefined,
  sessionId: string,
  id: string,
): string | null {
  const entry = lookup(id);
  if (entry === undefined)
    throw new RiendaError(
      "session",
      `session ${sessionId} has no message "${id}" (rienda sessions show ${sessionId} --tree lists them)`,
    );
  if (entry.kind === "compaction") return entry.id;
  if (entry.role === "assistant") {
    if (entry.blocks.some((b) => b.type === "tool_call")) {
      throw new RiendaError(
        "session",
        `message ${id} of session ${sessionId} calls tools, so no prompt can follow it; continue at the answer after its tool results, or at the prompt before it`,
      );
    }
    return entry.id;
  }
  if (entry.blocks.some((b) => b.type === "tool_result")) {
    throw new RiendaError(
      "session",
      `message ${id} of session ${sessionId} carries tool results, so no prompt can follow it; continue at the answer after it, or at the prompt before it`,
    );
  }
  return entry.parentId;
}
