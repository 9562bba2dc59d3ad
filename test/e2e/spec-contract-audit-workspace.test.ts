/**
 * The workspace a run takes when no -C is given (contract §4: the current
 * directory; §6: sessions filed by its absolute path), read the way the Go
 * Rienda read it, so that a ~/.rienda it wrote works unchanged: Go's
 * os.Getwd answers $PWD when that names the current directory.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** §6: `<slug>-<hash8>` of an absolute workspace path (ASCII paths: the slug is under 100 bytes here). */
function workspaceDirName(path: string): string {
  return `${path.replace(/[^A-Za-z0-9_]+/g, "-")}-${createHash("sha256").update(path).digest("hex").slice(0, 8)}`;
}

describe("the workspace of a run started in a shell (drop-in with the Go Rienda)", () => {
  test("a workspace reached through a symbolic link is the path the shell shows ($PWD), as Go's os.Getwd gave it", async () => {
    s = await scenario();
    const real = join(s.inst.root, "real-project");
    const link = join(s.inst.root, "linked-project");
    mkdirSync(real);
    symlinkSync(real, link);
    // A session the Go Rienda wrote for this workspace, filed under the path it saw.
    const goId = "01jgowrote0000000000000000";
    s.inst.write(
      s.inst.riendaPath("sessions", workspaceDirName(link), `${goId}.jsonl`),
      JSON.stringify({ kind: "header", version: 1, id: goId, createdAt: "2026-01-01T00:00:00Z", agent: "coder", model: "p/m", workdir: link }) + "\n",
    );
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { cwd: link, env: { PWD: link } });
    expect(r.code).toBe(0);
    const id = sessionIdFrom(r.stderr);
    expect(existsSync(s.inst.riendaPath("sessions", workspaceDirName(link), `${id}.jsonl`))).toBe(true);
    expect(readEntries(sessionFile(s.inst.home, id))[0]!.workdir).toBe(link);
    const listed = await s.inst.run(["sessions", "--json"], { cwd: link, env: { PWD: link } });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((x) => x.id).sort()).toEqual([goId, id].sort());

    // Continued from there, it runs where it was started, with nothing to say about another workspace.
    s.server.script({ text: "again" });
    const again = await s.inst.run(["run", "-s", id, "-p", "more"], { cwd: link, env: { PWD: link } });
    expect(again.stderr).toBe(`session: ${id}\n`);
    expect(again.stdout).toBe("again\n");

    // A $PWD that names another directory is not believed.
    const elsewhere = await s.inst.run(["sessions", "--json"], { cwd: link, env: { PWD: s.inst.workspace } });
    expect(elsewhere.stdout.trim()).toBe("[]");
  });
});
