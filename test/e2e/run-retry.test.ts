import { afterEach, describe, expect, test } from "bun:test";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("retries", () => {
  for (const protocol of PROTOCOLS) {
    test(`a 500 then a good answer prints the retry on stderr and the answer once (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ error: { status: 500, message: "upstream hiccup" } }, { text: "recovered" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("recovered\n");
      expect(r.stderr).toMatch(/transient error, retrying in \d+\.\ds: .*upstream hiccup/);
      expect(s.server.requests).toHaveLength(2);
    });

    test(`a stream cut mid-way is retried and its partial text is never printed (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "partial answer that gets cut", cutAfter: 2 }, { text: "whole answer" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("whole answer\n");
      expect(s.server.requests).toHaveLength(2);
    });
  }

  test("429 and 503 are retried; a 401 is not", async () => {
    s = await scenario();
    s.server.script(
      { error: { status: 429, message: "slow down" } },
      { error: { status: 503, message: "busy" } },
      { text: "third time" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("third time\n");
    expect(s.server.requests).toHaveLength(3);
    s.server.script({ error: { status: 401, message: "bad key" } });
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain("bad key");
    expect(s.server.requests).toHaveLength(4);
  }, 30_000);

  test("gives up after 5 attempts", async () => {
    s = await scenario();
    for (let i = 0; i < 5; i++) s.server.script({ error: { status: 502, message: `bad gateway ${i}` } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(s.server.requests).toHaveLength(5);
    expect(r.stderr.match(/transient error, retrying/g)).toHaveLength(4);
    expect(r.stderr).toContain("bad gateway 4");
  }, 40_000);
});
