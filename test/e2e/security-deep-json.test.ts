/**
 * Issue 39, item 8: JSON nested tens of thousands deep, from the model (tool
 * arguments, a `--schema` answer) or in a session file (imported or placed
 * in ~/.rienda/sessions), never overflows the stack: the call gets an error
 * result and the run goes on; a file is refused with a message naming it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { sessionFile, sessionIdFrom } from "../support/session-reader.ts";

const DEPTH = 60_000;
const deep = (n = DEPTH) => `${"[".repeat(n)}${"]".repeat(n)}`;

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("deeply nested JSON (issue 39, item 8)", () => {
  test("tool arguments nested 60,000 deep: the call gets an error result naming the depth, the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ id: "d", name: "shell", rawArguments: `{"command":"echo hi","x":${deep()}}` }] },
      { text: "recovered" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.stderr).not.toContain("Maximum call stack");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("recovered");
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results).toEqual([
      'invalid arguments for tool "shell": arrays and objects nested more than 256 levels deep (Rienda reads JSON up to that depth)',
    ]);
    // The session holds the call as the text it was, and shows.
    const id = sessionIdFrom(r.stderr);
    const shown = await s.inst.run(["sessions", "show", id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("recovered");
  });

  test("a --schema answer nested 60,000 deep is refused as not JSON the run can use, without a crash", async () => {
    s = await scenario();
    s.server.script({ text: deep() }, { text: deep() });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--schema", '{"type":"array"}']);
    expect(r.stderr).not.toContain("Maximum call stack");
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("nested more than 256 levels deep");
  });

  test("importing a session whose message holds JSON nested 60,000 deep is refused, naming the file and line; nothing is imported", async () => {
    s = await scenario();
    s.server.script({ text: "a real answer" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    const id = sessionIdFrom(r.stderr);
    const exported = await s.inst.run(["sessions", "export", id]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split("\n");
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    header.id = "01jqdeep000000000000000000";
    const crafted = `${JSON.stringify(header)}\n${lines[1]!.replace(/"blocks":\[/, `"deep":${deep()},"blocks":[`)}\n`;
    const file = join(s.inst.root, "deep.jsonl");
    writeFileSync(file, crafted);
    const imported = await s.inst.run(["sessions", "import", file]);
    expect(imported.stderr).not.toContain("Maximum call stack");
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`${file}, line 2: arrays and objects nested more than 272 levels deep`);
    const listed = await s.inst.run(["sessions", "--json"]);
    expect(listed.stdout).not.toContain("01jqdeep");

    // Placed by hand where sessions live: show refuses it with the same words; the listing marks it.
    writeFileSync(join(sessionFile(s.inst.home, id), "..", "01jqdeep000000000000000000.jsonl"), crafted);
    const shown = await s.inst.run(["sessions", "show", "01jqdeep000000000000000000"]);
    expect(shown.stderr).not.toContain("Maximum call stack");
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("line 2: arrays and objects nested more than 272 levels deep");
    const table = await s.inst.run(["sessions"]);
    expect(table.stdout).toContain("! cannot be loaded: line 2: arrays and objects nested more than 272 levels deep");
  });
});
