/**
 * Many rienda processes at once in one workspace: new runs, continuations of
 * the same two sessions, and listings, all started together (three rounds).
 * Each run either answers or, continuing a session another one holds,
 * refuses at once with the lock's message; listings never fail; afterwards
 * every session file loads, each holds exactly the prompts of the runs that
 * answered, and the listing names every session.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

setDefaultTimeout(180_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const promptsOf = (path: string) =>
  messageEntries(path)
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      (m.blocks as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text!),
    );

describe("several rienda at once", () => {
  test("new runs, continuations of the same sessions and listings started together: every run answers or is refused by the lock, nothing is lost or mixed", async () => {
    s = await scenario();
    const inst = s.inst;
    s.server.script(...Array.from({ length: 200 }, () => ({ text: "ok", chunkDelayMs: 20 })));
    const seeds: string[] = [];
    for (const name of ["a", "b"])
      seeds.push(sessionIdFrom((await inst.run(["run", "-a", "coder", "-p", `seed ${name}`])).stderr));
    const expected = new Map<string, string[]>(seeds.map((id, i) => [id, [`seed ${"ab"[i]}`]]));
    const failures: string[] = [];
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      const runs = [
        ...[0, 1, 2, 3].map((n) => ({ prompt: `new ${round}.${n}`, session: undefined as string | undefined })),
        ...[0, 1, 2].flatMap((n) => seeds.map((id, i) => ({ prompt: `more ${"ab"[i]} ${round}.${n}`, session: id }))),
      ];
      const started = runs.map((r) => ({
        ...r,
        result: inst.run(["run", ...(r.session ? ["-s", r.session] : ["-a", "coder"]), "-p", r.prompt]),
      }));
      const listings = [0, 1, 2].map(() => inst.run(["sessions"]));
      for (const r of started) {
        const out = await r.result;
        if (out.code === 0 && out.stdout === "ok\n") {
          const id = r.session ?? sessionIdFrom(out.stderr);
          expected.set(id, [...(expected.get(id) ?? []), r.prompt]);
        } else if (
          out.code === 1 &&
          r.session &&
          out.stderr.includes(`session ${r.session} is open in another rienda`)
        ) {
          refused++;
        } else {
          failures.push(`${r.prompt}: exit ${out.code}: ${out.stderr.slice(0, 300)}`);
        }
      }
      for (const listing of await Promise.all(listings)) {
        if (listing.code !== 0 || /\n\s+at .+:\d+:\d+|TypeError/.test(listing.stderr))
          failures.push(`a listing failed: ${listing.code} ${listing.stderr.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
    // The continuations did meet each other.
    expect(refused).toBeGreaterThan(0);
    // Each session holds the prompts of the runs that answered, each once; order within a session follows the lock.
    for (const [id, prompts] of expected)
      expect(promptsOf(sessionFile(inst.home, id)).sort()).toEqual([...prompts].sort());
    const listed = await inst.run(["sessions"]);
    expect(listed.code).toBe(0);
    for (const id of expected.keys()) expect(listed.stdout).toContain(id);
    expect(expected.size).toBe(2 + 3 * 4);
  });
});
