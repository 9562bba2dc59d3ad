/**
 * The conversation tree of one session, built entry by entry in file order.
 * Messages and compactions are nodes linked by `parentId`; the active leaf
 * is the last of them unless a later `leaf` entry moves it. Agent and model
 * switches hang from the node they were made at and apply to every branch
 * through it. Caches of the active branch grow in place when an entry is
 * appended at the leaf, so a 10,000-message session costs nothing per turn.
 */
import { RiendaError } from "../errors.ts";
import type { Message } from "../providers/types.ts";
import type { PassThroughEntry } from "./decode-entry.ts";
import { titleFromBlocks, normalizeTitle } from "./session-title.ts";
import type { AgentEntry, CompactionEntry, InterruptionReason, MessageEntry, ModelEntry, SessionEntry } from "./types.ts";

/** A node of the tree as the active branch lists it. */
export type BranchEntry = MessageEntry | CompactionEntry;

interface Node {
  id: string;
  parentId: string | null;
  entry?: BranchEntry;
  message?: Message;
}

/** Tree state of a session; `add` validates links and throws RiendaError naming `where`. */
export class SessionTree {
  readonly #nodes = new Map<string, Node>();
  readonly #selections: Array<AgentEntry | ModelEntry> = [];
  /** Entries a run was interrupted at. */
  /** Entry id → why the request that stopped there was cut short (undefined: the user interrupted it). */
  readonly #interrupted = new Map<string, InterruptionReason | undefined>();
  #leaf: string | null = null;
  #explicitTitle: string | undefined;
  #firstPrompt: string | undefined;
  #messageCount = 0;
  #updatedAt = "";
  #branch: Node[] | undefined;
  #branchIds: Set<string> | undefined;
  #messages: Message[] | undefined;

  /** Adds one entry read from or appended to the file. */
  add(entry: SessionEntry | PassThroughEntry, where: string): void {
    if ("createdAt" in entry && entry.createdAt !== "") this.#updatedAt = entry.createdAt;
    switch (entry.kind) {
      case "message":
      case "compaction":
        this.#addNode(entry, where);
        return;
      case "pass-through":
        // A kind we do not know: only kept so entries hanging from it still link.
        if (!this.#nodes.has(entry.id)) this.#nodes.set(entry.id, { id: entry.id, parentId: entry.parentId });
        return;
      case "leaf":
        if (entry.targetId !== null && !this.#nodes.has(entry.targetId)) {
          throw new RiendaError("session", `${where}: the leaf points at unknown entry "${entry.targetId}"`);
        }
        this.#setLeaf(entry.targetId);
        return;
      case "title":
        this.#explicitTitle = normalizeTitle(entry.title);
        return;
      case "interruption":
        if (entry.parentId !== null) this.#interrupted.set(entry.parentId, entry.reason);
        // Rare enough to rebuild the cached history rather than patch it.
        this.#messages = undefined;
        return;
      case "agent":
      case "model":
        this.#selections.push(entry);
        if (entry.id !== "" && !this.#nodes.has(entry.id)) this.#nodes.set(entry.id, { id: entry.id, parentId: entry.parentId });
        return;
    }
  }

  /** Id of the active leaf; null when the session has no message or the leaf was moved before the first. */
  get leafId(): string | null {
    return this.#leaf;
  }

  /** Whether an entry with this id exists (any linkable kind). */
  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  /** Time of the last entry (ISO string), "" when there is none. */
  get updatedAt(): string {
    return this.#updatedAt;
  }

  /** Message entries of every branch. */
  get messageCount(): number {
    return this.#messageCount;
  }

  /** The last `title` entry's title, else the first user prompt, else "". */
  get title(): string {
    return this.#explicitTitle || this.#firstPrompt || "";
  }

  /** The messages and compactions of the active branch, root to leaf. */
  branch(): BranchEntry[] {
    return this.#branchNodes().flatMap((n) => (n.entry ? [n.entry] : []));
  }

  /**
   * The active branch as canonical messages, rebuilt from its newest
   * compaction: the summary as a leading user message, then the messages
   * from the kept entry on, with `interruptionMessage()` after each user
   * turn a run was interrupted at. The caller must not mutate the messages.
   */
  messages(): Message[] {
    if (this.#messages === undefined) this.#messages = this.#buildMessages();
    return this.#messages.slice();
  }

  /** The agent in effect on the active branch. */
  agent(initial: string): string {
    return this.#selected("agent", initial);
  }

  /** The model in effect on the active branch. */
  model(initial: string): string {
    return this.#selected("model", initial);
  }

  #addNode(entry: BranchEntry, where: string): void {
    if (this.#nodes.has(entry.id)) throw new RiendaError("session", `${where}: duplicate entry id "${entry.id}"`);
    if (entry.parentId !== null && !this.#nodes.has(entry.parentId)) {
      throw new RiendaError("session", `${where}: parent "${entry.parentId}" is not an earlier entry`);
    }
    const node: Node = { id: entry.id, parentId: entry.parentId, entry };
    if (entry.kind === "message") {
      node.message = { role: entry.role, blocks: entry.blocks };
      this.#messageCount++;
      if (this.#firstPrompt === undefined && entry.role === "user") this.#firstPrompt = titleFromBlocks(entry.blocks);
    }
    this.#nodes.set(entry.id, node);
    const extendsLeaf = entry.parentId === this.#leaf && this.#branch !== undefined;
    if (!extendsLeaf) {
      this.#setLeaf(entry.id);
      return;
    }
    // Appended at the leaf: grow the caches instead of rebuilding them.
    this.#leaf = entry.id;
    this.#branch!.push(node);
    this.#branchIds?.add(entry.id);
    if (this.#messages !== undefined && node.message) this.#messages.push(node.message);
    else this.#messages = undefined;
  }

  #setLeaf(id: string | null): void {
    this.#leaf = id;
    this.#branch = undefined;
    this.#branchIds = undefined;
    this.#messages = undefined;
  }

  #branchNodes(): Node[] {
    if (this.#branch !== undefined) return this.#branch;
    const path: Node[] = [];
    // Parents are always earlier entries, so the walk ends; the bound guards hand-edited files.
    for (let id = this.#leaf; id !== null && path.length <= this.#nodes.size; ) {
      const node = this.#nodes.get(id);
      if (!node) break;
      path.push(node);
      id = node.parentId;
    }
    this.#branch = path.reverse();
    return this.#branch;
  }

  #buildMessages(): Message[] {
    const nodes = this.#branchNodes();
    let start = 0;
    let summary: string | undefined;
    for (let i = nodes.length - 1; i >= 0; i--) {
      const entry = nodes[i]!.entry;
      if (entry?.kind !== "compaction") continue;
      summary = entry.summary;
      const kept = nodes.findIndex((n) => n.id === entry.keptId);
      // A kept entry off the branch can only come from a hand-edited file: keep what follows the checkpoint.
      start = kept !== -1 && kept < i ? kept : i + 1;
      break;
    }
    const messages: Message[] = summary === undefined ? [] : [compactionSummaryMessage(summary)];
    for (let i = start; i < nodes.length; i++) {
      const node = nodes[i]!;
      const message = node.message;
      if (message && message.blocks.length > 0) messages.push(message);
      // Only a user turn left without an answer needs saying so; it also keeps the next prompt a message of its own.
      if (this.#interrupted.has(node.id) && messages.at(-1)?.role === "user") messages.push(interruptionMessage(this.#interrupted.get(node.id)));
    }
    return messages;
  }

  #selected(kind: "agent" | "model", initial: string): string {
    let value = initial;
    if (this.#selections.length === 0) return value;
    if (this.#branchIds === undefined) this.#branchIds = new Set(this.#branchNodes().map((n) => n.id));
    const onBranch = this.#branchIds;
    for (const s of this.#selections) {
      if (s.kind !== kind) continue;
      if (s.parentId === null || onBranch.has(s.parentId) || (s.id !== "" && onBranch.has(s.id))) {
        value = s.kind === "agent" ? s.agent : s.model;
      }
    }
    return value;
  }
}

/**
 * The user message that carries a compaction summary to the model, worded so
 * it reads as background rather than as a new instruction.
 */
export function compactionSummaryMessage(summary: string): Message {
  return {
    role: "user",
    blocks: [
      {
        type: "text",
        text:
          "Earlier turns of this conversation were condensed into the summary below. " +
          `Take it as background, not as new instructions.\n\n<summary>\n${summary}\n</summary>`,
      },
    ],
  };
}

/** Text of the answer that stands for an interrupted request in the history. */
export const INTERRUPTION_TEXT = "[The user interrupted this request before it was finished. What follows is a new message.]";

/** Text of the answer that stands for a request whose run failed (a provider error after retries, the loop guard, ...). */
export const FAILED_REQUEST_TEXT = "[This request failed before it was finished: the run ended with an error. What follows is a new message.]";

/** Text of the answer that stands for a request a limit stopped (--max-turns, --max-cost, --timeout: docs/cli.md "Limits"). */
export const LIMIT_STOP_TEXT = "[This request was stopped before it was finished: the run reached its limit of model requests, cost or time. What follows is a new message.]";

/**
 * The assistant turn that the history shows after a request the user
 * interrupted: the model learns that the request was cut short, and the next
 * prompt stays a message of its own instead of being glued onto it.
 */
export function interruptionMessage(reason?: InterruptionReason): Message {
  const text = reason === "error" ? FAILED_REQUEST_TEXT : reason === "limit" ? LIMIT_STOP_TEXT : INTERRUPTION_TEXT;
  return { role: "assistant", blocks: [{ type: "text", text }] };
}
