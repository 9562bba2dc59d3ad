/**
 * `rienda sessions prune --dry-run` says and lists exactly what the real
 * prune then does (docs/sessions.md): a session another process holds is
 * kept in both, with the same line and exit status. And a session whose
 * header names itself as its parent is no subagent's: `rienda sessions`
 * lists it like any other, so what prune removes is what the listing shows.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

async function session(prompt: string): Promise<string> {
  s!.server.script({ text: "ok" });
  const r = await s!.inst.run(["run", "-a", "coder", "-p", prompt]);
  return sessionIdFrom(r.stderr);
}

/** Makes every entry of the session 2020's. */
function age(id: string): void {
  const path = sessionFile(s!.inst.home, id);
  writeFileSync(
    path,
    readFileSync(path, "utf8").replace(/"createdAt":"[^"]+"/g, '"createdAt":"2020-01-01T00:00:00.000Z"'),
  );
}

test("--dry-run keeps a held session as the real prune does: same stdout, same stderr, same exit status", async () => {
  s = await scenario();
  const old = await session("old");
  const held = await session("held");
  for (const id of [old, held]) age(id);
  const holder = spawn("sleep", ["30"]);
  try {
    writeFileSync(
      sessionFile(s.inst.home, held).replace(/\.jsonl$/, ".lock"),
      JSON.stringify({ pid: holder.pid, host: hostname(), token: "t" }),
    );
    const dry = await s.inst.run(["sessions", "prune", "--older-than", "30d", "--dry-run"]);
    const real = await s.inst.run(["sessions", "prune", "--older-than", "30d"]);
    expect(dry.stdout).toBe(`${old}\n`);
    expect(real.stdout).toBe(dry.stdout);
    expect(dry.stderr).toContain(`rienda: kept ${held}: session ${held} is open in another rienda (pid ${holder.pid})`);
    expect(dry.stderr).toContain("would remove 1 session, kept 1 open elsewhere");
    expect(real.stderr).toBe(dry.stderr.replace("would remove", "removed"));
    expect(dry.code).toBe(1);
    expect(real.code).toBe(1);
  } finally {
    holder.kill();
  }
});

test("a header naming itself as parent: listed by rienda sessions, as prune and its dry run see it", async () => {
  s = await scenario();
  const id = await session("self-parented");
  const path = sessionFile(s.inst.home, id);
  const [header, ...rest] = readFileSync(path, "utf8").split("\n");
  writeFileSync(
    path,
    [JSON.stringify({ ...JSON.parse(header!), parentSession: id, parentCallId: "c1" }), ...rest].join("\n"),
  );
  const listed = await s.inst.run(["sessions", "--json"]);
  expect(listed.code).toBe(0);
  const sessions = JSON.parse(listed.stdout) as { id: string; parentSession?: string }[];
  expect(sessions.map((x) => x.id)).toEqual([id]);
  expect(sessions[0]!.parentSession).toBeUndefined();
  const shown = await s.inst.run(["sessions", "show", id]);
  expect(shown.stdout).not.toContain("subagent of");
  age(id);
  const dry = await s.inst.run(["sessions", "prune", "--older-than", "30d", "--dry-run"]);
  expect(dry.stdout).toBe(`${id}\n`);
});
