/**
 * Session files that cannot be loaded: `rienda sessions` marks them with
 * the reason, and `rienda run -s` says what is wrong with the file instead
 * of calling every bad header "cut off".
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

let s: Scenario;
beforeEach(async () => {
  s = await scenario();
});
afterEach(async () => {
  await s.dispose();
});

/** Runs once to get a real session, and returns its file and the directory it lives in. */
async function realSession(): Promise<{ id: string; file: string; dir: string }> {
  s.server.script({ text: "hello" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "first prompt"]);
  expect(r.code).toBe(0);
  const file = sessionFiles(s.inst.home)[0]!;
  return { id: file.split("/").pop()!.replace(".jsonl", ""), file, dir: dirname(file) };
}

describe("damaged session files", () => {
  test("a garbage header is named as such by run -s, and marked by rienda sessions", async () => {
    const { id, dir } = await realSession();
    s.inst.write(join(dir, "01jqgarbage0000000000000000.jsonl"), "this is not a session\n{}\n");
    s.inst.write(
      join(dir, "01jqforeign0000000000000000.jsonl"),
      '{"kind":"message","id":"a","role":"user","blocks":[]}\n',
    );

    const garbage = await s.inst.run(["run", "-s", "01jqgarbage0000000000000000", "-p", "again"]);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toBe(
      `rienda: session file ${join(dir, "01jqgarbage0000000000000000.jsonl")}: line 1 is not valid JSON, so it is not a session header (it begins "this is not a session")\n`,
    );
    const foreign = await s.inst.run(["run", "-s", "01jqforeign0000000000000000", "-p", "again"]);
    expect(foreign.stderr).toContain(
      `: line 1 is not a session header: its "kind" is "message" (a session file starts with {"kind":"header",...})`,
    );
    expect(foreign.stderr).not.toContain("cut off");

    const table = await s.inst.run(["sessions"]);
    expect(table.code).toBe(0);
    const rows = table.stdout.split("\n");
    expect(rows.find((r) => r.startsWith(id))).toContain("first prompt");
    expect(rows.find((r) => r.startsWith("01jqgarbage"))).toContain("! cannot be loaded: line 1 is not valid JSON");
    expect(rows.find((r) => r.startsWith("01jqforeign"))).toContain(
      '! cannot be loaded: line 1 is not a session header: its "kind" is "message"',
    );
    expect(table.stderr).toBe("2 sessions cannot be loaded: its TITLE says why; rienda run -s ID names the file\n");

    const json = JSON.parse((await s.inst.run(["sessions", "--json"])).stdout) as Array<{
      id: string;
      problem: string | null;
    }>;
    expect(Object.fromEntries(json.map((j) => [j.id, j.problem]))).toEqual({
      [id]: null,
      "01jqgarbage0000000000000000":
        'line 1 is not valid JSON, so it is not a session header (it begins "this is not a session")',
      "01jqforeign0000000000000000":
        'line 1 is not a session header: its "kind" is "message" (a session file starts with {"kind":"header",...})',
    });
  });

  test("a session damaged in the middle is marked with the line, and run -s names the same line", async () => {
    const { id, file } = await realSession();
    const lines = (await Bun.file(file).text()).split("\n");
    lines.splice(2, 0, '{"kind":"message","id":"zz","role":"user","blocks":[{"type":"te');
    await Bun.write(file, lines.join("\n"));
    const table = await s.inst.run(["sessions"]);
    expect(table.stdout).toContain("! cannot be loaded: line 3 is not valid JSON");
    const run = await s.inst.run(["run", "-s", id, "-p", "again"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`rienda: session file ${file}, line 3: not valid JSON\n`);
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
  });
});
