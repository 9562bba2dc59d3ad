/**
 * Sessions: every conversation as an append-only JSONL file in
 * `~/.rienda/sessions/<slug>-<hash8>/<id>.jsonl` (contract.md §6, the format
 * of Go Rienda, which must keep loading).
 *
 * Invariants: one process at a time has a session open (a lock file beside
 * it, stale locks of dead processes taken over); an entry is one whole line
 * written by one append call; a torn last line (crash) is ignored on load
 * and cut under the lock when the session is opened; the file is never
 * rewritten, only appended to (and cut back to its last whole entry);
 * unknown entry kinds are ignored (kept as links when they have an id);
 * switches (agent, model, thinking level) are written in the Go Rienda's
 * shape, on the chain, and what a branch runs with is the newest switch on
 * it; directories 0700, files 0600.
 *
 * Must not: import anything but errors and provider types, know about
 * agents, config or the run loop, or write a message that is not whole.
 */
export { createSession, type CreateSessionOptions } from "./create-session.ts";
export { openSession, type OpenSessionOptions } from "./open-session.ts";
export { listSessions, type ListSessionsOptions } from "./list-sessions.ts";
export { readSession, type ReadSessionOptions, type StoredSession } from "./read-session.ts";
export { forkSession, type ForkOptions } from "./fork-session.ts";
export { branchPoint } from "./branch-point.ts";
export { pruneSessions, removeSession, type PruneResult } from "./remove-session.ts";
export { MAX_IMPORT_BYTES, MAX_IMPORT_LINE_BYTES } from "./import-checks.ts";
export { importSession, type ImportedSession } from "./import-session.ts";
export { SessionFile } from "./session-file.ts";
export {
  compactionSummaryMessage,
  FAILED_REQUEST_TEXT,
  interruptionMessage,
  INTERRUPTION_TEXT,
  LIMIT_STOP_TEXT,
  type BranchEntry,
} from "./session-tree.ts";
export { createIdGenerator, idTime, type IdSources } from "./new-id.ts";
export { normalizeTitle } from "./session-title.ts";
export { workspaceDir, workspaceDirName, workspaceHash, workspaceSlug } from "./workspace-dir.ts";
export {
  SESSION_FORMAT_VERSION,
  type AgentEntry,
  type CompactionEntry,
  type CompactionInput,
  type IdGenerator,
  type InterruptionEntry,
  type InterruptionReason,
  type LeafEntry,
  type MessageEntry,
  type MessageMeta,
  type ModelEntry,
  type SessionEntry,
  type SessionHeader,
  type SessionSummary,
  type SwitchEntry,
  type ThinkingEntry,
  type TitleEntry,
} from "./types.ts";
