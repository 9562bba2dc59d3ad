/**
 * The subcommands of `rienda sessions`: show, export, import, rm, prune
 * (docs/sessions.md). Each has its own flags, read strictly; none opens a
 * session for writing, and rm/prune remove a session only under its lock.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { messageOf, RiendaError } from "../../errors.ts";
import { readStdinBytes } from "../../attachments/index.ts";
import { importSession, MAX_IMPORT_BYTES, pruneSessions, readSession, removeSession } from "../../sessions/index.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { stdoutForPeople } from "../shared/for-people.ts";
import { homeDir } from "../shared/home-dir.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { jsonOfSession, markdownTranscript, plainTranscript, treeOfSession } from "./sessions-show.ts";
import { defineCommand, type Command } from "../shared/command.ts";

const workdirArg = { type: "string", alias: "C", description: "Workspace (default: the current directory)" } as const;
const idArg = { type: "positional", required: false, description: "The session id" } as const;

const showArgs = {
  id: idArg,
  workdir: workdirArg,
  json: { type: "boolean", description: "The header and every entry as JSON" },
  markdown: { type: "boolean", description: "The transcript as Markdown" },
  tree: { type: "boolean", description: "Every branch, as a tree of messages" },
  thinking: { type: "boolean", description: "Show the model's thinking" },
} as const;

const idOnly = { id: idArg, workdir: workdirArg } as const;
const importArgs = {
  file: { type: "positional", required: false, description: "The session file (- reads stdin)" },
  workdir: workdirArg,
} as const;
const pruneArgs = {
  workdir: workdirArg,
  "older-than": {
    type: "string",
    description: "Remove sessions whose last entry is older than this: 30d, 12h, 2w, 90m",
  },
  "dry-run": { type: "boolean", description: "Only list what would be removed" },
} as const;

/** The subcommands, by name. */
export const sessionSubcommands: Record<string, Command<any>> = {
  show: defineCommand({
    meta: {
      name: "show",
      description: "Print one session: its transcript, as JSON, as Markdown, or as a tree of its branches.",
    },
    args: showArgs,
    run({ values, positionals }) {
      const id = requireWord(positionals[0], "show", "the id of the session to show");
      const views = [values.json, values.markdown, values.tree].filter(Boolean).length;
      if (views > 1) throw new RiendaError("usage", "sessions show: choose one of --json, --markdown and --tree");
      const stored = readSession({ home: homeDir(), id, workdir: resolveWorkdir(values.workdir) });
      const options = { thinking: values.thinking === true };
      if (values.json) process.stdout.write(`${jsonWithControlsEscaped(JSON.stringify(jsonOfSession(stored)))}\n`);
      // Markdown goes to a file or a pull request as it is; the other views are for a terminal.
      else if (values.markdown) process.stdout.write(markdownTranscript(stored, options));
      else stdoutForPeople().write(values.tree ? treeOfSession(stored) : plainTranscript(stored, options));
    },
  }),
  export: defineCommand({
    meta: { name: "export", description: "Print one session's file as stored, to keep or import elsewhere." },
    args: idOnly,
    run({ values, positionals }) {
      const id = requireWord(positionals[0], "export", "the id of the session to export");
      const stored = readSession({ home: homeDir(), id, workdir: resolveWorkdir(values.workdir) });
      // The file as stored, whole entries only: attachments are inline, so it needs nothing else.
      process.stdout.write(stored.bytes);
    },
  }),
  import: defineCommand({
    meta: {
      name: "import",
      description: "Add a session file (from sessions export) to this workspace's sessions; prints its id.",
    },
    args: importArgs,
    async run({ values, positionals }) {
      const file = requireWord(positionals[0], "import", "the session file to import (- reads stdin)");
      const bytes = await readImportFile(file);
      const imported = importSession({
        home: homeDir(),
        workdir: resolveWorkdir(values.workdir),
        bytes,
        source: file === "-" ? "stdin" : file,
      });
      process.stdout.write(`${imported.id}\n`);
      process.stderr.write(`imported session ${imported.id} (${imported.messageCount} messages) to ${imported.path}\n`);
    },
  }),
  rm: defineCommand({
    meta: { name: "rm", description: "Remove one session." },
    args: idOnly,
    run({ values, positionals }) {
      const id = requireWord(positionals[0], "rm", "the id of the session to remove");
      const path = removeSession({ home: homeDir(), id, workdir: resolveWorkdir(values.workdir) });
      process.stderr.write(`removed session ${id} (${path})\n`);
    },
  }),
  prune: defineCommand({
    meta: {
      name: "prune",
      description: "Remove the sessions whose last entry is older than --older-than; prints their ids.",
    },
    args: pruneArgs,
    run({ values }) {
      if (values["older-than"] === undefined)
        throw new RiendaError("usage", "sessions prune: --older-than AGE is required (30d, 12h, 2w, 90m)");
      const olderThanMs = parseAge(values["older-than"]);
      const result = pruneSessions({
        home: homeDir(),
        workdir: resolveWorkdir(values.workdir),
        olderThanMs,
        dryRun: values["dry-run"] === true,
      });
      for (const r of result.removed) process.stdout.write(`${r.id}\n`);
      for (const s of result.skipped) process.stderr.write(`rienda: kept ${s.id}: ${s.reason}\n`);
      const verb = values["dry-run"] ? "would remove" : "removed";
      process.stderr.write(
        `${verb} ${result.removed.length} ${result.removed.length === 1 ? "session" : "sessions"}${result.skipped.length > 0 ? `, kept ${result.skipped.length} open elsewhere` : ""}\n`,
      );
      if (result.skipped.length > 0) process.exitCode = 1;
    },
  }),
};

/** The file to import, read up to MAX_IMPORT_BYTES: a larger one is refused before it is read (stdin: as soon as it passes). */
async function readImportFile(file: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new RiendaError(
      "session",
      `${file === "-" ? "stdin" : file}: is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, the most sessions import reads; nothing was imported`,
    );
  try {
    if (file === "-") return await readStdinBytes(process.stdin, { limit: MAX_IMPORT_BYTES });
    if (statSync(resolve(file)).size > MAX_IMPORT_BYTES) throw tooLarge();
    return readFileSync(resolve(file));
  } catch (error) {
    if (error instanceof RiendaError) throw /too large/.test(error.message) ? tooLarge() : error;
    throw new RiendaError("usage", `sessions import: cannot read ${file}: ${messageOf(error)}`, { cause: error });
  }
}

function requireWord(word: string | undefined, sub: string, what: string): string {
  if (word === undefined) throw new RiendaError("usage", `sessions ${sub}: give ${what} (see rienda sessions --help)`);
  return word;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d` → milliseconds; m, h, d, w. */
export function parseAge(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(text.trim());
  if (!match)
    throw new RiendaError(
      "usage",
      `sessions prune: --older-than ${JSON.stringify(text)} is not an age (a number and m, h, d or w: 30d, 12h)`,
    );
  return Number(match[1]) * UNITS[match[2]!]!;
}
