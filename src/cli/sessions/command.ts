/**
 * `rienda sessions [-C DIR] [--json] [--all]`: this workspace's sessions,
 * newest first. Plain output is a table on stdout (one session per line, the
 * title last so it may be long); `--json` prints one JSON array. With no
 * sessions the table prints nothing and `--json` prints `[]`; stderr says so
 * in both. Subagents' sessions are left out unless `--all`, which lists each
 * right under the session that started it (docs/subagents.md).
 */
import { defineCommand } from "../shared/command.ts";
import { listSessions, type SessionSummary } from "../../sessions/index.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { homeDir } from "../shared/home-dir.ts";
import { stdoutForPeople } from "../shared/for-people.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { sessionSubcommands } from "./sessions-manage.ts";
import { costCell } from "./cost-cell.ts";
import { textTable } from "../shared/text-table.ts";

const args = {
  workdir: {
    type: "string",
    alias: "C",
    description: "Workspace whose sessions to list (default: the current directory)",
  },
  json: { type: "boolean", description: "Print one JSON array instead of a table" },
  all: { type: "boolean", description: "Also list subagents' sessions, each under the session that started it" },
} as const;

export default defineCommand({
  meta: {
    name: "sessions",
    description:
      "List this workspace's sessions, newest first. Also: sessions show ID [--json|--markdown|--tree] [--thinking], sessions export ID, sessions import FILE, sessions rm ID, sessions prune --older-than 30d [--dry-run].",
  },
  args,
  subCommands: sessionSubcommands,
  // The listing takes no words: `rienda sessions x` is an unexpected argument.
  otherWords: "argument",
  async run(line) {
    const parsed = line.values;
    const workdir = resolveWorkdir(parsed.workdir);
    const listed = listSessions({ home: homeDir(), workdir });
    const sessions = parsed.all
      ? underParents(listed)
      : listed.filter((s) => s.parentSession === undefined).map((s) => ({ session: s, depth: 0 }));
    if (parsed.json)
      process.stdout.write(
        `${jsonWithControlsEscaped(JSON.stringify(sessions.map(({ session }) => jsonOf(session))))}\n`,
      );
    // Titles come from prompts, which may come from anywhere (-p - reads a file).
    else if (sessions.length > 0) stdoutForPeople().write(formatSessionTable(sessions));
    if (sessions.length === 0) process.stderr.write(`no sessions in this workspace (${workdir})\n`);
    const broken = sessions.filter(({ session }) => session.problem !== null).length;
    if (broken > 0) {
      const which = broken === 1 ? "1 session cannot be loaded" : `${broken} sessions cannot be loaded`;
      process.stderr.write(
        `${which}: ${parsed.json ? 'its "problem" says why' : "its TITLE says why"}; rienda run -s ID names the file\n`,
      );
    }
  },
});

/** The fields of one `--json` element, in a stable order. */
function jsonOf(s: SessionSummary): Record<string, unknown> {
  return {
    id: s.id,
    updatedAt: s.updatedAt,
    createdAt: s.createdAt,
    agent: s.agent,
    model: s.model,
    title: s.title,
    messageCount: s.messageCount,
    usage: s.usage,
    cost: s.cost,
    workdir: s.workdir,
    path: s.path,
    problem: s.problem,
    ...(s.parentSession !== undefined ? { parentSession: s.parentSession, parentCallId: s.parentCallId ?? null } : {}),
  };
}

/** A session and how many subagent levels it is below a listed session. */
interface ListedSession {
  session: SessionSummary;
  depth: number;
}

/**
 * Every session, each subagent's right under the session that started it
 * (in the order they were started); a session whose parent is not listed
 * (deleted, or in a circle of hand-edited headers) stays in the newest-first
 * order at the top level.
 */
function underParents(sessions: SessionSummary[]): ListedSession[] {
  const ids = new Set(sessions.map((s) => s.id));
  const children = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    if (s.parentSession === undefined || !ids.has(s.parentSession)) continue;
    children.set(s.parentSession, [...(children.get(s.parentSession) ?? []), s]);
  }
  const out: ListedSession[] = [];
  const visit = (session: SessionSummary, depth: number, seen: Set<string>): void => {
    if (seen.has(session.id)) return;
    seen.add(session.id);
    out.push({ session, depth });
    const below = [...(children.get(session.id) ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const child of below) visit(child, depth + 1, seen);
  };
  const byId = new Map(sessions.map((s) => [s.id, s]));
  /** Whether following parents from `s` comes back round (hand-edited headers naming each other, or themselves). */
  const inCircle = (s: SessionSummary): boolean => {
    const met = new Set<string>();
    for (
      let at: SessionSummary | undefined = s;
      at !== undefined;
      at = at.parentSession === undefined ? undefined : byId.get(at.parentSession)
    ) {
      if (met.has(at.id)) return true;
      met.add(at.id);
    }
    return false;
  };
  const seen = new Set<string>();
  for (const s of sessions) {
    // A circle has no top: its newest session stands for it, so no session is left out.
    if (!seen.has(s.id) && (s.parentSession === undefined || !ids.has(s.parentSession) || inCircle(s)))
      visit(s, 0, seen);
  }
  return out;
}

/** The plain listing: a header row, then one row per session (a subagent's id indented under its parent's); times in local time. */
function formatSessionTable(sessions: ListedSession[]): string {
  const rows = [
    ["ID", "UPDATED", "AGENT", "MODEL", "MESSAGES", "TOKENS", "COST", "TITLE"],
    ...sessions.map(({ session: s, depth }) => [
      "  ".repeat(depth) + s.id,
      localTime(s.updatedAt),
      oneLine(s.agent),
      oneLine(s.model),
      String(s.messageCount),
      tokensCell(s),
      costCell(s.cost),
      titleCell(s),
    ]),
  ];
  return textTable(rows);
}

/** Prompt tokens (cache reads included) / output tokens, in thousands past 10,000; "-" before any answer. */
function tokensCell(s: SessionSummary): string {
  const { inputTokens, outputTokens } = s.usage;
  if (inputTokens === 0 && outputTokens === 0) return "-";
  return `${compact(inputTokens)} in, ${compact(outputTokens)} out`;
}

function compact(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n);
}

function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The title, or for a session that cannot be loaded, why (a row must not look continuable when it is not). */
function titleCell(s: SessionSummary): string {
  return s.problem === null ? oneLine(s.title) : `! cannot be loaded: ${oneLine(s.problem)}`;
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim() || "-";
}
