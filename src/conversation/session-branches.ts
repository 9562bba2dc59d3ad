/**
 * The conversation's `/fork`, `/tree` and `/export` (and rpc's `fork`) over the
 * session the chat holds: the same operations as `run --fork`, `run --at`
 * and `sessions export` (docs/sessions.md), on a session already open here.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { branchPoint, forkSession, readSession, type SessionFile } from "../sessions/index.ts";
import type { TreeRow } from "./types.ts";
import { treeLines } from "./tree-lines.ts";

/** What the commands need of the conversation. */
export interface TreeHost {
  home: string;
  workdir(): string;
  session(): SessionFile | undefined;
  /** Makes `next` the current session (the previous one is closed by the caller's rules here). */
  replaceSession(next: SessionFile): void;
}

/** fork, continueAt, treeRows and exportTo of the Conversation. */
export function sessionTreeCommands(host: TreeHost) {
  const current = (what: string): SessionFile => {
    const session = host.session();
    if (!session) throw new RiendaError("session", `nothing to ${what} yet: the session starts with the first message`);
    return session;
  };
  return {
    fork(at?: string): string {
      const session = current("fork");
      // Our own file, read as any reader would: every entry we wrote is a whole line.
      const stored = readSession({ home: host.home, id: session.id, workdir: session.header.workdir });
      const leaf = at === undefined ? session.leafId : branchPoint((id) => session.entry(id), session.id, at);
      const fork = forkSession({ home: host.home, workdir: host.workdir(), from: stored, at: leaf });
      session.close();
      host.replaceSession(fork);
      return fork.id;
    },
    continueAt(id: string): { prompt?: string } {
      const session = current("continue from");
      const entry = session.entry(id);
      const leaf = branchPoint((e) => session.entry(e), session.id, id);
      session.moveLeaf(leaf);
      if (entry?.kind === "message" && entry.role === "user") {
        const text = entry.blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
        return { prompt: text };
      }
      return {};
    },
    treeRows(): TreeRow[] {
      const session = host.session();
      if (!session) return [];
      const stored = readSession({ home: host.home, id: session.id, workdir: session.header.workdir });
      const created = new Map(stored.entries.flatMap((e) => ("id" in e ? [[e.id, e.createdAt] as const] : [])));
      return treeLines(stored).map((row) => ({ ...row, createdAt: created.get(row.id) }));
    },
    exportTo(path: string): string {
      const session = current("export");
      const stored = readSession({ home: host.home, id: session.id, workdir: session.header.workdir });
      const target = resolve(host.workdir(), path);
      try {
        writeFileSync(target, stored.bytes, { flag: "wx", mode: 0o600 });
      } catch (error) {
        if ((error as { code?: unknown }).code === "EEXIST")
          throw new RiendaError("usage", `${target} already exists; export writes a new file`);
        throw new RiendaError("session", `cannot write ${target}: ${messageOf(error)}`, { cause: error });
      }
      return target;
    },
  };
}
