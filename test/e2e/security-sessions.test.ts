/**
 * Issue 39, the session files: what a crafted or hand-edited file can do.
 * Item 7: only an unterminated torn tail (what a crash leaves) is cut by
 * `run -s`; a whole last line that is not JSON is an error naming the file
 * and the line, and the file is left byte for byte as it was.
 * Item 11: `sessions prune --dry-run` says what the real prune does about a
 * session another process holds (kept), not "would remove".
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A session of one exchange, written by the binary. */
async function realSession(current: Scenario): Promise<{ id: string; file: string }> {
  current.server.script({ text: "first answer" });
  const r = await current.inst.run(["run", "-a", "coder", "-p", "first"]);
  expect(r.code).toBe(0);
  const id = sessionIdFrom(r.stderr);
  return { id, file: sessionFile(current.inst.home, id) };
}

describe("a session file's last line (issue 39, item 7)", () => {
  test("a whole, newline-terminated last line that is not JSON (a hand edit) is an error naming file and line; the file is untouched", async () => {
    s = await scenario();
    const { id, file } = await realSession(s);
    appendFileSync(file, '{"kind":"message","id":"hand-edited","role":"user","blocks":[{"type":"text","text":"my notes"}]\n');
    const before = readFileSync(file);
    const r = await s.inst.run(["run", "-s", id, "-p", "more"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`rienda: session file ${file}, line 4: not valid JSON (a whole line, ended by a newline, so not one a crash cut short: Rienda leaves the file as it is; mend or delete the line)`);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(s.server.requests.length).toBe(1);
    const shown = await s.inst.run(["sessions", "show", id]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain(`line 4: not valid JSON`);
  });

  test("a torn tail without its newline (a crash mid-write) is still cut, and the session continues", async () => {
    s = await scenario();
    const { id, file } = await realSession(s);
    appendFileSync(file, '{"kind":"message","id":"torn","role":"assistant","blocks":[{"type":"te');
    s.server.script({ text: "second answer" });
    const r = await s.inst.run(["run", "-s", id, "-p", "more"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("second answer\n");
    expect(readFileSync(file, "utf8")).not.toContain('"id":"torn"');
    expect(messageEntries(file).map((e) => e.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });
});

describe("sessions prune (issue 39, item 11)", () => {
  test("--dry-run names a session held by another process as kept, exactly as the real prune does", async () => {
    s = await scenario();
    const old = await realSession(s);
    const held = await realSession(s);
    for (const { file } of [old, held]) writeFileSync(file, readFileSync(file, "utf8").replace(/"createdAt":"[^"]+"/g, '"createdAt":"2020-01-01T00:00:00.000Z"'));
    const holder = spawn("sleep", ["30"]);
    try {
      writeFileSync(held.file.replace(/\.jsonl$/, ".lock"), JSON.stringify({ pid: holder.pid, host: hostname(), token: "t" }));
      const dry = await s.inst.run(["sessions", "prune", "--older-than", "30d", "--dry-run"]);
      const real = await s.inst.run(["sessions", "prune", "--older-than", "30d"]);
      expect(dry.stdout).toBe(`${old.id}\n`);
      expect(real.stdout).toBe(`${old.id}\n`);
      expect(dry.stderr).toContain(`rienda: kept ${held.id}: `);
      expect(dry.stderr).toContain("would remove 1 session, kept 1 open elsewhere");
      expect(real.stderr).toContain("removed 1 session, kept 1 open elsewhere");
      expect([dry.code, real.code]).toEqual([1, 1]);
      expect(existsSync(held.file)).toBe(true);
      expect(existsSync(old.file)).toBe(false);
    } finally {
      holder.kill();
    }
  });
});
