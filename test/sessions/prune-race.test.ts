/** sessions prune checks a session's age again under its lock (issue 39, item 11). */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { pruneSessions } from "../../src/sessions/index.ts";
import { pruneIfStillOld } from "../../src/sessions/remove-session.ts";
import { createSession, openSession, tempHome } from "./helpers.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => {
  t = tempHome();
});
afterEach(() => t.dispose());

const OLD = Date.UTC(2020, 0, 1);
const DAY = 86_400_000;

describe("prune under the lock", () => {
  test("a session listed as old but continued before its lock was taken is kept", () => {
    const session = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a", now: () => OLD });
    session.appendMessage({ role: "user", blocks: [{ type: "text", text: "old" }] });
    session.close();
    // Another process continues it (a new entry of today) after prune listed it at 2020.
    const continued = openSession({ home: t.home, id: session.id });
    continued.appendMessage({ role: "user", blocks: [{ type: "text", text: "continued today" }] });
    continued.close();
    const listed = new Date(OLD).toISOString();
    expect(pruneIfStillOld(session.path, session.id, listed, Date.now() - 30 * DAY, false)).toBe(false);
    expect(existsSync(session.path)).toBe(true);
  });

  test("a dry run takes the lock like the real prune: a held session is kept, named, in both", () => {
    const session = createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a", now: () => OLD });
    session.appendMessage({ role: "user", blocks: [{ type: "text", text: "old" }] });
    const options = { home: t.home, workdir: t.workdir, olderThanMs: 30 * DAY };
    const dry = pruneSessions({ ...options, dryRun: true });
    const real = pruneSessions(options);
    expect(dry.removed).toEqual([]);
    expect(real.removed).toEqual([]);
    expect(dry.skipped.map((s) => s.id)).toEqual([session.id]);
    expect(real.skipped.map((s) => s.id)).toEqual([session.id]);
    session.close();
    expect(pruneSessions({ ...options, dryRun: true }).removed.map((r) => r.id)).toEqual([session.id]);
    expect(existsSync(session.path)).toBe(true);
  });
});
