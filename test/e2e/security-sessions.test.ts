/**
 * Issue 39, the session files: what a crafted or hand-edited file can do.
 * Item 7: only an unterminated torn tail (what a crash leaves) is cut by
 * `run -s`; a whole last line that is not JSON is an error naming the file
 * and the line, and the file is left byte for byte as it was.
 * Item 10: `sessions import` refuses what no session Rienda writes holds.
 * Item 11: `sessions prune --dry-run` says what the real prune does about a
 * session another process holds (kept), not "would remove".
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
    appendFileSync(
      file,
      '{"kind":"message","id":"hand-edited","role":"user","blocks":[{"type":"text","text":"my notes"}]\n',
    );
    const before = readFileSync(file);
    const r = await s.inst.run(["run", "-s", id, "-p", "more"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: session file ${file}, line 4: not valid JSON (a whole line, ended by a newline, so not one a crash cut short: Rienda leaves the file as it is; mend or delete the line)`,
    );
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
    for (const { file } of [old, held])
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(/"createdAt":"[^"]+"/g, '"createdAt":"2020-01-01T00:00:00.000Z"'),
      );
    const holder = spawn("sleep", ["30"]);
    try {
      writeFileSync(
        held.file.replace(/\.jsonl$/, ".lock"),
        JSON.stringify({ pid: holder.pid, host: hostname(), token: "t" }),
      );
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

describe("sessions import refuses crafted files (issue 39, item 10)", () => {
  /** A real exported session with a tool call, its lines parsed, and a way to import a variant. */
  async function exported(current: Scenario) {
    current.inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\ntools: [shell]\n---\nBe brief.\n");
    current.server.script(
      { toolCalls: [{ id: "call-1", name: "shell", arguments: { command: "echo hi" } }] },
      { text: "done" },
    );
    const r = await current.inst.run(["run", "-a", "coder", "-p", "first", "-f", "-"], {
      stdinPipe: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    });
    const id = sessionIdFrom(r.stderr);
    const lines = (await current.inst.run(["sessions", "export", id])).stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const importing = async (entries: unknown[], name = "crafted.jsonl") => {
      const file = join(current.inst.root, name);
      writeFileSync(file, `${entries.map((e) => (typeof e === "string" ? e : JSON.stringify(e))).join("\n")}\n`);
      return { file, r: await current.inst.run(["sessions", "import", file]) };
    };
    return { id, lines, importing };
  }

  const sessionCount = async (current: Scenario) =>
    (JSON.parse((await current.inst.run(["sessions", "--json"])).stdout) as unknown[]).length;

  test("a header alone, a second header, a result without its call, data that is not base64, an id differing only in case: each refused, naming it", async () => {
    s = await scenario();
    const { id, lines, importing } = await exported(s);
    const header = { ...lines[0]!, id: "01jqcrafted000000000000000" };
    const body = lines.slice(1);
    const before = await sessionCount(s);
    const cases: Array<[unknown[], string]> = [
      [[header], "it holds no message (a header alone): there is nothing to continue"],
      [
        [header, body[0], { ...header, id: "01jqother0000000000000000" }, ...body.slice(1)],
        "line 3 is a second session header (one file holds one session)",
      ],
      [
        [
          header,
          ...body.map((e) =>
            JSON.stringify(e).includes('"tool_call"') ? { ...e, blocks: [{ type: "text", text: "no call here" }] } : e,
          ),
        ],
        'holds a result for tool call "call-1", which no earlier message made',
      ],
      [
        [
          header,
          ...body.map((e) => JSON.parse(JSON.stringify(e).replace(/"data":"[^"]*"/, '"data":"not base64 at all!"'))),
        ],
        "is not base64",
      ],
      [
        [{ ...lines[0]!, id: id.toUpperCase() }, ...body],
        `session ${id.toUpperCase()} differs only in case from session ${id}, already here`,
      ],
    ];
    expect(JSON.stringify(body)).toContain('"data":"');
    for (const [entries, message] of cases) {
      const { file, r } = await importing(entries);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`rienda: ${file}: `)]);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain("nothing was imported");
    }
    expect(await sessionCount(s)).toBe(before);
    // The untouched export still imports (as a new id): the checks refuse only what is wrong.
    const fine = await importing([header, ...body]);
    expect(fine.r.code).toBe(0);
  });

  test("a file over 256 MiB is refused before it is read; a line over 64 MiB before it is parsed", async () => {
    s = await scenario();
    const huge = join(s.inst.root, "huge.jsonl");
    writeFileSync(huge, "");
    truncateSync(huge, 300 * 1024 * 1024); // sparse: nothing is written to disk
    const r = await s.inst.run(["sessions", "import", huge]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `rienda: ${huge}: is larger than 256 MiB, the most sessions import reads; nothing was imported\n`,
    );
    const { lines, importing } = await exported(s);
    const long = { ...lines[1]!, blocks: [{ type: "text", text: "x".repeat(65 * 1024 * 1024) }] };
    const { file, r: refused } = await importing([{ ...lines[0]!, id: "01jqlong000000000000000000" }, long]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `rienda: ${file}: line 2 is longer than 64 MiB, the most sessions import reads in one line; nothing was imported\n`,
    );
  });
});
