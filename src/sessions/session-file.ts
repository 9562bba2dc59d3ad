/**
 * One open session: the loaded tree plus the appender, holding the
 * session's lock until `close()`. Every entry is one whole line written by
 * one append call; a torn tail left by a crash was cut when the session was
 * opened, and a failed append is cut before the next one, so a new entry is
 * never glued onto a broken line. The file is opened per
 * append (no descriptor to close) and never created here: a file deleted
 * under a running session is an error, not a headerless new file.
 */
import { Buffer } from "node:buffer";
import { closeSync, constants, openSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import { messageOf, RiendaError } from "../errors.ts";
import type { Block, Message } from "../providers/types.ts";
import { thinkingLevelOf } from "./branch-switches.ts";
import { encodeEntry } from "./encode-entry.ts";
import type { ParsedSession } from "./parse-session-bytes.ts";
import type { SessionLock } from "./session-lock.ts";
import { normalizeTitle } from "./session-title.ts";
import type { BranchEntry, SessionTree } from "./session-tree.ts";
import type {
  CompactionInput,
  IdGenerator,
  InterruptionReason,
  MessageMeta,
  SessionEntry,
  SessionHeader,
} from "./types.ts";

const APPEND_EXISTING = constants.O_WRONLY | constants.O_APPEND;
/** What a thinking entry turning thinking off stores. */
const THINKING_OFF = "off";

/** What a SessionFile is made of; built by createSession and openSession. */
export interface SessionFileParts extends Omit<ParsedSession, "entries"> {
  path: string;
  /** The session's lock, released by `close()`. */
  lock: SessionLock;
  ids: IdGenerator;
  now: () => number;
  /** Made by createSession (holding only its header), not opened: only such a file is removed by `closeDiscardingUnused`. */
  created?: boolean;
  /** Kept in memory only (--no-session): entries go to the tree, never to a file. */
  memory?: boolean;
}

/** An open session file: read the conversation, append to it. The lock keeps other processes from opening it meanwhile. */
export class SessionFile {
  /** The session id (the file name without `.jsonl`). */
  readonly id: string;
  /** Absolute path of the `.jsonl` file. */
  readonly path: string;
  /** Line 1 of the file, as written at creation. */
  readonly header: SessionHeader;
  readonly #tree: SessionTree;
  readonly #ids: IdGenerator;
  readonly #now: () => number;
  readonly #lock: SessionLock;
  readonly #memory: boolean;
  #closed = false;
  /** Created here, and nothing written after its header yet. */
  #unused: boolean;
  #size: number;
  #repairTo: number | undefined;
  #needsNewline: boolean;

  constructor(parts: SessionFileParts) {
    this.id = parts.header.id;
    this.path = parts.path;
    this.header = parts.header;
    this.#tree = parts.tree;
    this.#ids = parts.ids;
    this.#now = parts.now;
    this.#lock = parts.lock;
    this.#size = parts.validBytes;
    this.#repairTo = parts.torn ? parts.validBytes : undefined;
    this.#needsNewline = parts.needsNewline;
    this.#unused = parts.created === true;
    this.#memory = parts.memory === true;
  }

  /** Kept in memory only (--no-session): nothing of it is ever written. */
  get ephemeral(): boolean {
    return this.#memory;
  }

  /** The agent in effect at the active leaf: the newest `agent` entry on its branch, else the header's. */
  get agent(): string {
    return this.#tree.agent(this.header.agent);
  }

  /** The `provider/alias` in effect at the active leaf: the newest `model` entry on its branch, else the header's. */
  get model(): string {
    return this.#tree.model(this.header.model);
  }

  /** The thinking level in effect at the active leaf; undefined: off (no `thinking` entry on its branch, or one turning it off). */
  get thinking(): string | undefined {
    return this.#tree.thinking();
  }

  /** The last `title` entry, else the first user prompt (one line, 80 characters), else "". */
  get title(): string {
    return this.#tree.title;
  }

  /** Id of the active leaf, null before the first message. */
  get leafId(): string | null {
    return this.#tree.leafId;
  }

  /** Time of the last entry, else of the header. */
  get updatedAt(): string {
    return this.#tree.updatedAt || this.header.createdAt;
  }

  /** Message entries in the file, every branch included. */
  get messageCount(): number {
    return this.#tree.messageCount;
  }

  /** The agent in effect on the branch that ends at `leafId` (null: before the first message). */
  agentAt(leafId: string | null): string {
    return this.#tree.agent(this.header.agent, leafId);
  }

  /** The model in effect on the branch that ends at `leafId`. */
  modelAt(leafId: string | null): string {
    return this.#tree.model(this.header.model, leafId);
  }

  /** The thinking level in effect on the branch that ends at `leafId` (undefined: off). */
  thinkingAt(leafId: string | null): string | undefined {
    return this.#tree.thinking(leafId);
  }

  /** The message or compaction entry with this id, on any branch. */
  entry(id: string): BranchEntry | undefined {
    return this.#tree.entry(id);
  }

  /** The active branch, root to leaf, as canonical messages (compaction applied). Do not mutate them. */
  messages(): Message[] {
    return this.#tree.messages();
  }

  /** The message and compaction entries of the active branch, root to leaf, with their ids. */
  branch(): BranchEntry[] {
    return this.#tree.branch();
  }

  /** Appends a whole message after the active leaf and makes it the leaf; returns its entry id. */
  appendMessage(message: Message, meta: MessageMeta = {}): string {
    checkMessage(message, this.path);
    const link = this.#link();
    this.#write({
      kind: "message",
      ...link,
      role: message.role,
      blocks: message.blocks,
      responseModel: meta.responseModel,
      responseStopReason: meta.responseStopReason,
      responseUsage: meta.responseUsage,
      ...(meta.responseCost !== undefined ? { responseCost: meta.responseCost } : {}),
      ...(meta.interrupted !== undefined ? { interrupted: meta.interrupted } : {}),
    });
    return link.id;
  }

  /**
   * Writes an entry read from another session as it is (id, parent and time
   * kept): how a fork copies the branch it continues, so entry ids name the
   * same messages in both files.
   */
  appendCopy(entry: SessionEntry): void {
    this.#write(entry);
  }

  /**
   * Switches the agent on the active branch: an entry after the active leaf
   * that becomes the leaf (the Go Rienda's shape). Returns false (and writes
   * nothing) when it is already in effect.
   */
  appendAgent(agentId: string): boolean {
    const previous = this.agent;
    if (agentId === previous) return false;
    requireName(agentId, "agent", this.path);
    this.#write({ kind: "agent", ...this.#link(), agentId, previousAgentId: previous });
    return true;
  }

  /** Switches the model (`provider/alias`) on the active branch, as appendAgent. */
  appendModel(modelRef: string): boolean {
    const previous = this.model;
    if (modelRef === previous) return false;
    requireName(modelRef, "model", this.path);
    this.#write({ kind: "model", ...this.#link(), modelRef, previousModelRef: previous });
    return true;
  }

  /**
   * Sets the thinking level on the active branch, as appendAgent; undefined
   * (or `off`) turns thinking off, written as `off`. The level is not checked
   * against a model's levels here: that is the caller's business.
   */
  appendThinking(level: string | undefined): boolean {
    const wanted = thinkingLevelOf(level) ?? THINKING_OFF;
    if (wanted === this.thinking) return false;
    this.#write({ kind: "thinking", ...this.#link(), thinkingLevel: wanted });
    return true;
  }

  /** Names the session (one line, 80 characters); an empty title goes back to the first prompt. */
  appendTitle(title: string): void {
    this.#write({ kind: "title", createdAt: this.#timestamp(), title: normalizeTitle(title) });
  }

  /** Moves the active leaf to an existing entry, or before the first message (null). */
  moveLeaf(targetId: string | null): void {
    if (targetId !== null && !this.#tree.has(targetId)) {
      throw new RiendaError("session", `session ${this.id} has no entry "${targetId}"`);
    }
    this.#write({ kind: "leaf", targetId, createdAt: this.#timestamp() });
  }

  /** Appends a compaction checkpoint at the active leaf; `keptId` must be on the active branch. Returns its id. */
  appendCompaction(input: CompactionInput): string {
    if (!this.#tree.branch().some((e) => e.id === input.keptId)) {
      throw new RiendaError(
        "session",
        `session ${this.id}: the kept entry "${input.keptId}" is not on the active branch`,
      );
    }
    const link = this.#link();
    this.#write({
      kind: "compaction",
      ...link,
      summary: input.summary,
      keptId: input.keptId,
      tokensBefore: input.tokensBefore,
      responseModel: input.responseModel,
      responseUsage: input.responseUsage,
    });
    return link.id;
  }

  /**
   * Records that a run was interrupted at the active leaf (nothing before the
   * first message). The leaf does not move; the history shows the interrupted
   * request as answered by `interruptionMessage()`.
   */
  appendInterruption(reason?: InterruptionReason): void {
    const at = this.#tree.leafId;
    if (at === null) return;
    this.#write({
      kind: "interruption",
      id: this.#ids(),
      parentId: at,
      createdAt: this.#timestamp(),
      ...(reason ? { reason } : {}),
    });
  }

  /** Releases the lock; later appends are refused. Safe to call twice. */
  close(): void {
    this.#closed = true;
    this.#lock.release();
  }

  /**
   * Closes the session, and removes its file when it was created here and
   * received nothing after its header: a run interrupted before it stored
   * its prompt (in its beforeRun hooks) leaves no empty session behind, as
   * one interrupted during setup writes none. The file goes while the lock
   * is held, so no other process opens it meanwhile. A session opened to be
   * continued is never removed. Returns whether the file was removed.
   */
  closeDiscardingUnused(): boolean {
    let removed = false;
    if (!this.#closed && this.#unused && !this.#memory) {
      try {
        unlinkSync(this.path);
        removed = true;
      } catch {
        // Already gone, or not ours to remove: closing is all that is left.
      }
    }
    this.close();
    return removed;
  }

  /** Id, parent (the active leaf) and time of a new entry on the branch. */
  #link(): { id: string; parentId: string | null; createdAt: string } {
    return { id: this.#ids(), parentId: this.#tree.leafId, createdAt: this.#timestamp() };
  }

  #timestamp(): string {
    return new Date(this.#now()).toISOString();
  }

  #write(entry: SessionEntry): void {
    if (this.#closed)
      throw new RiendaError("session", `session ${this.id} was closed; it cannot be written to any more`);
    if ("id" in entry && this.#tree.has(entry.id))
      throw new RiendaError("session", `session ${this.id} already has an entry "${entry.id}"`);
    if (this.#memory) {
      this.#unused = false;
      this.#tree.add(entry, `session ${this.id}`);
      return;
    }
    const line = encodeEntry(entry);
    const bytes = Buffer.from(this.#needsNewline ? `\n${line}` : line);
    try {
      if (this.#repairTo !== undefined) truncateSync(this.path, this.#repairTo);
      this.#repairTo = undefined;
      appendExisting(this.path, bytes);
    } catch (error) {
      // Whatever part of the line reached the disk is cut before the next append.
      this.#repairTo = this.#size;
      throw new RiendaError("session", `cannot write session file ${this.path}: ${messageOf(error)}`, { cause: error });
    }
    this.#size += bytes.length;
    this.#needsNewline = false;
    this.#unused = false;
    this.#tree.add(entry, `session ${this.id}`);
  }
}

/** One write of the whole line (the loop only matters if the kernel writes less than asked). */
function appendExisting(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, APPEND_EXISTING);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

function checkMessage(message: Message, path: string): void {
  if (message.role !== "user" && message.role !== "assistant") {
    throw new RiendaError("session", `cannot store a message with role ${JSON.stringify(message.role)} in ${path}`);
  }
  if (!Array.isArray(message.blocks) || message.blocks.length === 0) {
    throw new RiendaError("session", `cannot store a message without blocks in ${path}`);
  }
  for (const block of message.blocks as Block[]) {
    if (!["text", "thinking", "tool_call", "tool_result", "attachment"].includes(block?.type)) {
      throw new RiendaError("session", `cannot store a block of type ${JSON.stringify(block?.type)} in ${path}`);
    }
  }
}

function requireName(value: string, what: string, path: string): void {
  if (typeof value !== "string" || value.trim() === "")
    throw new RiendaError("session", `cannot record an empty ${what} in ${path}`);
}
