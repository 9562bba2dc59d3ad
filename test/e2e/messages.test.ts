/**
 * Messages that must say what is true (issue 40): sizes against the limit
 * of what a file holds, sizes that differ where they do, a `--schema`
 * problem at its place in the schema, the waiting-for-stdin notice as an
 * event under `--json`, and Rienda's own notices marked as its own.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../support/instance.ts";
import { jsonEvents, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const MIB = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("a file too large to attach", () => {
  const cases: { what: string; bytes: () => Buffer; message: string }[] = [
    {
      what: "50 MB of text: the text limit",
      bytes: () => Buffer.alloc(50 * MIB, "a"),
      message: "-f big: is too large to attach (50.0 MB of text; the limit is 10.0 MB)",
    },
    {
      what: "10 MB + 1 byte of text: sizes to the byte",
      bytes: () => Buffer.alloc(10 * MIB + 1, "a"),
      message: "-f big: is too large to attach (10,485,761 bytes of text; the limit is 10,485,760 bytes, 10.0 MB)",
    },
    {
      what: "50 MB of a PNG: the image limit",
      bytes: () => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(50 * MIB - PNG_SIGNATURE.length, 1)]),
      message: "-f big: is too large to attach (50.0 MB of a PNG image; the limit is 20.0 MB)",
    },
  ];
  for (const { what, bytes, message } of cases) {
    test(what, async () => {
      s = await scenario();
      writeFileSync(join(s.inst.workspace, "big"), bytes());
      const r = await s.inst.run(["run", "-a", "coder", "-f", "big", "-p", "summarize"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`rienda: ${message}\n`);
      expect(s.server.requests).toHaveLength(0);
    });
  }

  test("piped text beyond the text limit says so", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdinPipe: Buffer.alloc(11 * MIB, "a") });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: stdin: is too large to attach (more than 10.0 MB of text, the limit for text)\n");
  });
});

test("--schema: a problem named at its place in the schema, with the value found there", async () => {
  s = await scenario();
  const r = await s.inst.run([
    "run",
    "-a",
    "coder",
    "-p",
    "x",
    "--schema",
    '{"type":"objekt","properties":{"n":{"minimum":"one"}}}',
  ]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    'rienda: --schema: is not a usable JSON Schema: /properties/n/minimum is "one": must be a number; /type is "objekt": must be one of "array", "boolean", "integer", "null", "number", "object", "string" or must be an array\n',
  );
});

test("--json: the waiting-for-stdin notice is an event, right after run_start, and a line on stderr", async () => {
  s = await scenario();
  s.server.script({ text: "ok" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize", "--json"], {
    stdinPipe: "late data",
    pipeDelayMs: 3600,
  });
  expect(r.code).toBe(0);
  const events = jsonEvents(r.stdout);
  expect(events[0]!.type).toBe("run_start");
  expect(events[1]).toEqual({
    type: "notice",
    message:
      "waiting for stdin: it is not a terminal and nothing has come yet; it is read as data for the prompt; run with --no-stdin (or < /dev/null) if it is not meant for Rienda",
  });
  expect(r.stderr).toContain("rienda: waiting for stdin: ");
});

test("plain: Rienda's own notices start with rienda:, a tool's ctx.notify is as it wrote it", async () => {
  s = await scenario({ agentFrontmatter: "tools: [tell]\nhooks: [broken]" });
  s.inst.tool(
    "tell",
    "module.exports = { description: 'Tells.', parameters: { type: 'object', properties: {} }, execute(ctx) { ctx.notify({ title: 'Deploy', body: 'done' }); return 'told'; } };\n",
  );
  s.inst.hook("broken", "module.exports = { afterToolExecute() { throw new Error('boom'); } };\n");
  s.server.script({ toolCalls: [{ id: "c1", name: "tell", arguments: {} }] }, { text: "ok" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('\nrienda: hook "broken" failed in afterToolExecute: boom\n');
  expect(r.stderr).toContain("\nnotice: Deploy: done\n");
});

describe("docs/ci.md: the session id of a --json run", () => {
  /** A shell line in the workspace; the binary is "$RIENDA". */
  function shell(line: string): Promise<{ status: number | null; stdout: string }> {
    const child = spawn("sh", ["-c", line], {
      cwd: s!.inst.workspace,
      env: s!.inst.env({ RIENDA: BINARY }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    return new Promise((done) => child.on("close", (status) => done({ status, stdout })));
  }

  test("ID=$(rienda run --json … | head -1) ends the run with 141", async () => {
    s = await scenario();
    // The answer streams after run_start, slowly enough that head has gone by then.
    s.server.script({ text: "a long review, word by word", chunkDelayMs: 200 });
    const r = await shell('{ "$RIENDA" run -a coder -p Review --json; echo "$?" > status; } | head -1');
    expect(JSON.parse(r.stdout)).toMatchObject({ type: "run_start" });
    expect(readFileSync(join(s.inst.workspace, "status"), "utf8")).toBe("141\n");
  });

  test("reading the stream to its end with jq gives the id, and the run ends 0", async () => {
    s = await scenario();
    s.server.script({ text: "a long review, word by word", chunkDelayMs: 50 });
    const r = await shell(
      `ID=$("$RIENDA" run -a coder -p Review --json | jq -r 'select(.type == "run_start") | .sessionId'); echo "id=$ID"`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^id=[0-9a-z]{26}\n$/);
  });
});
