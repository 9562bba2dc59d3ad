/**
 * Reads session files the way an outside program would, from the contract
 * (contract.md §6) alone: never imports src/.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One parsed line of a session file. */
export type Entry = Record<string, unknown> & { kind: string };

/** Every session file under `<home>/.rienda/sessions`. */
export function sessionFiles(home: string): string[] {
  const root = join(home, ".rienda", "sessions");
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(root, d.name))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(root, d.name, f)),
    );
}

/** The file of session `id`; throws when there is none. */
export function sessionFile(home: string, id: string): string {
  const found = sessionFiles(home).find((f) => f.endsWith(`/${id}.jsonl`));
  if (!found) throw new Error(`no session file for ${id}`);
  return found;
}

/** The entries of a session file; a torn last line is skipped. */
export function readEntries(path: string): Entry[] {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const entries: Entry[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      entries.push(JSON.parse(line) as Entry);
    } catch (error) {
      if (i !== lines.length - 1) throw error;
    }
  }
  return entries;
}

/** The message entries, in file order. */
export function messageEntries(path: string): Entry[] {
  return readEntries(path).filter((e) => e.kind === "message");
}

/** The session id printed on the first stderr line of a run. */
export function sessionIdFrom(stderr: string): string {
  const match = /^session: (\S+)$/m.exec(stderr);
  if (!match) throw new Error(`no session line in stderr:\n${stderr}`);
  return match[1]!;
}
