import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFile, sessionFiles } from "../support/session-reader.ts";
import { seededRandom } from "../support/random.ts";

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

let s: Scenario;
beforeAll(async () => {
  s = await scenario({ agentFrontmatter: "tools: [shell]" });
});
afterAll(async () => {
  await s.dispose();
});

describe("kill -9 at any moment leaves a session that loads and continues", () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}`, async () => {
      const random = seededRandom(seed);
      s.server.reset();
      s.server.script(
        {
          text: "step one",
          toolCalls: [{ id: "a1", name: "shell", arguments: { command: "echo one; sleep 0.03" } }],
          chunkDelayMs: 5,
        },
        {
          text: "step two",
          toolCalls: [
            { id: "a2", name: "shell", arguments: { command: "echo two" } },
            { id: "a3", name: "shell", arguments: { command: "sleep 0.02; echo three" } },
          ],
          chunkDelayMs: 5,
        },
        { text: "final answer with several chunks of text", chunkDelayMs: 10 },
      );
      const before = new Set(sessionFiles(s.inst.home));
      const run = s.inst.start(["run", "-a", "coder", "-p", `crash test ${seed}`]);
      const delay = Math.floor(random() * 350);
      await new Promise((r) => setTimeout(r, delay));
      run.kill("SIGKILL");
      await run.done;
      const created = sessionFiles(s.inst.home).filter((f) => !before.has(f));
      if (created.length === 0) return; // killed before the session existed: nothing to continue
      expect(created).toHaveLength(1);
      const id = created[0]!
        .split("/")
        .pop()!
        .replace(/\.jsonl$/, "");
      s.server.reset();
      s.server.script({ text: `continued ${seed}` });
      const r = await s.inst.run(["run", "-s", id, "-p", "continue please"]);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`continued ${seed}\n`);
      const lines = readFileSync(sessionFile(s.inst.home, id), "utf8").split("\n").filter(Boolean);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    });
  }
});
