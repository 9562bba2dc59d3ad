/**
 * Which session a run writes to, from `-s`, `-c`, `--fork`, `--at` and
 * `--no-session` (docs/sessions.md "Continuing"): their checks,
 * and the session source setup.ts opens before anything is written.
 *
 * - `-s ID` / `-c`: the session itself, opened (its lock held) at once, so a
 *   session open elsewhere is refused before any request.
 * - `--at ENTRY`: the same file, on a new branch: a `leaf` entry moves the
 *   active leaf (branch-point.ts), written only once every check passed.
 * - `--fork` (with or without `--at`): a new session with the branch copied;
 *   the original is only read (no lock: it may be open elsewhere).
 * - `--no-session` (`--ephemeral`): nothing is written; continuing a session
 *   reads it as a fork does, into memory.
 */
import { RiendaError } from "../errors.ts";
import {
  branchPoint,
  createSession,
  forkSession,
  listSessions,
  openSession,
  readSession,
  type SessionFile,
  type SessionHeader,
} from "../sessions/index.ts";

/** What the flags asked for. */
export interface SessionChoice {
  /** -s ID, or -c's latest session. */
  sessionId?: string;
  fork: boolean;
  at?: string;
  ephemeral: boolean;
}

/** Reads and checks the session flags; `-c` is resolved to the workspace's latest session. */
export function sessionChoice(
  values: { session?: string; continue?: boolean; fork?: boolean; at?: string; "no-session"?: boolean },
  where: { home: string; workdir: string },
): SessionChoice {
  if (values.continue && values.session !== undefined) throw new RiendaError("usage", "run: use -c or -s ID, not both");
  const continuing = values.session !== undefined || values.continue === true;
  if (values.fork && !continuing) throw new RiendaError("usage", "run: --fork needs the session to fork: -s ID or -c");
  if (values.at !== undefined && !continuing)
    throw new RiendaError("usage", "run: --at needs the session it names a message of: -s ID or -c");
  if (values.fork && values["no-session"])
    throw new RiendaError("usage", "run: --fork writes a new session and --no-session writes none; choose one");
  const sessionId = values.session ?? (values.continue ? latestSessionId(where.home, where.workdir) : undefined);
  return {
    ...(sessionId !== undefined ? { sessionId } : {}),
    fork: values.fork === true,
    ...(values.at !== undefined ? { at: values.at } : {}),
    ephemeral: values["no-session"] === true,
  };
}

/** The id of the workspace's most recent session that is not a subagent's; an error when there is none. */
export function latestSessionId(home: string, workdir: string): string {
  const [latest] = listSessions({ home, workdir }).filter((s) => s.parentSession === undefined);
  if (!latest) throw new RiendaError("session", `no session to continue in this workspace (${workdir})`);
  return latest.id;
}

/**
 * A session to continue, checked but not yet written: `agent`, `model` and
 * `header.workdir` are those in effect where the run continues; `open`
 * gives the session the run writes to (writing the leaf move or the fork).
 */
export interface SessionSource {
  id: string;
  header: SessionHeader;
  agent: string;
  model: string;
  /** The thinking level the branch records; absent when it records none. */
  thinking?: string;
  open(home: string, workdir: string): SessionFile;
  /** Gives up the session without writing (a refused run): releases its lock. */
  close(): void;
}

/** Opens or reads the session the choice names; throws RiendaError (unknown session, held elsewhere, a bad --at). */
export function sessionSource(
  choice: SessionChoice & { sessionId: string },
  where: { home: string; workdir: string },
): SessionSource {
  if (!choice.fork && !choice.ephemeral) {
    const file = openSession({ home: where.home, id: choice.sessionId, workdir: where.workdir });
    try {
      const leaf = choice.at === undefined ? file.leafId : branchPoint((id) => file.entry(id), file.id, choice.at);
      return {
        id: file.id,
        header: file.header,
        agent: file.agentAt(leaf),
        model: file.modelAt(leaf),
        ...thinkingOf(file.thinkingAt(leaf)),
        open: () => {
          if (choice.at !== undefined) file.moveLeaf(leaf);
          return file;
        },
        close: () => file.close(),
      };
    } catch (error) {
      file.close();
      throw error;
    }
  }
  const stored = readSession({ home: where.home, id: choice.sessionId, workdir: where.workdir });
  const leaf =
    choice.at === undefined
      ? stored.tree.leafId
      : branchPoint((id) => stored.tree.entry(id), stored.header.id, choice.at);
  return {
    id: stored.header.id,
    header: stored.header,
    agent: stored.tree.agent(stored.header.agent, leaf),
    model: stored.tree.model(stored.header.model, leaf),
    ...thinkingOf(stored.tree.thinking(leaf)),
    open: (home, workdir) =>
      forkSession({ home, workdir, from: stored, at: leaf, ...(choice.ephemeral ? { memory: true } : {}) }),
    close: () => undefined,
  };
}

/** `{thinking}` when the branch has a level in force. */
function thinkingOf(level: string | undefined): { thinking?: string } {
  return level === undefined ? {} : { thinking: level };
}

/** A new session for a run without -s/-c: a file, or with --no-session one kept in memory. */
export function newSession(options: {
  home: string;
  workdir: string;
  agent: string;
  model: string;
  ephemeral: boolean;
}): SessionFile {
  const { ephemeral, ...rest } = options;
  return createSession({ ...rest, ...(ephemeral ? { memory: true } : {}) });
}
