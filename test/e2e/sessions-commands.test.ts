/**
 * The session commands end to end: run -c, --fork, --at, --no-session;
 * sessions show (plain, --json, --markdown, --tree, --thinking), export and
 * import, rm and prune (never a session another process holds), and a
 * session in the Go Rienda's format opened, branched and exported.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { jsonEvents, scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

const GO_FIXTURE = resolve(import.meta.dir, "../fixtures/sessions/go-branched.jsonl");
const GO_ID = "01jq3v8m6w2k4x9c7b5pv3q2fm";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A run that answers `answer`; returns its session id. */
async function runOnce(sc: Scenario, args: string[], answer: string): Promise<string> {
  sc.server.script({ text: answer, usage: { input: 10, output: 2 } });
  const r = await sc.inst.run(["run", ...args]);
  expect(r.stderr).not.toContain("rienda:");
  expect(r.code).toBe(0);
  return sessionIdFrom(r.stderr);
}

const bodyText = (sc: Scenario, i: number) => JSON.stringify(sc.server.requests[i]!.body);

describe("continuing", () => {
  test("run -c continues the workspace's latest session; without any there is an error", async () => {
    s = await scenario();
    const none = await s.inst.run(["run", "-c", "-p", "x"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no session to continue in this workspace");
    await runOnce(s, ["-a", "coder", "-p", "older"], "a1");
    const latest = await runOnce(s, ["-a", "coder", "-p", "newer"], "a2");
    const again = await runOnce(s, ["-c", "-p", "and then?"], "a3");
    expect(again).toBe(latest);
    expect(bodyText(s, 2)).toContain("newer");
    expect(bodyText(s, 2)).not.toContain("older");
    const both = await s.inst.run(["run", "-c", "-s", latest, "-p", "x"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("use -c or -s ID, not both");
  });

  test("--fork continues into a new session naming its origin; the original is not written", async () => {
    s = await scenario();
    const id = await runOnce(s, ["-a", "coder", "-p", "first"], "one");
    const before = readFileSync(sessionFile(s.inst.home, id));
    const fork = await runOnce(s, ["-s", id, "--fork", "-p", "second"], "two");
    expect(fork).not.toBe(id);
    expect(readFileSync(sessionFile(s.inst.home, id))).toEqual(before);
    const entries = readEntries(sessionFile(s.inst.home, fork));
    const original = messageEntries(sessionFile(s.inst.home, id));
    expect(entries[0]).toMatchObject({ kind: "header", forkedFrom: id, forkedAt: original[1]!.id, agent: "coder" });
    expect(
      messageEntries(sessionFile(s.inst.home, fork))
        .map((m) => m.id)
        .slice(0, 2),
    ).toEqual(original.map((m) => m.id));
    expect(bodyText(s, 1)).toContain("first");
    expect(bodyText(s, 1)).toContain("one");
    const refused = await s.inst.run(["run", "--fork", "-p", "x", "-a", "coder"]);
    expect(refused.stderr).toContain("--fork needs the session to fork");
  });

  test("--fork works while another process holds the original", async () => {
    s = await scenario();
    const id = await runOnce(s, ["-a", "coder", "-p", "first"], "one");
    s.server.script({ hang: true });
    const holder = s.inst.start(["run", "-s", id, "-p", "busy"]);
    await s.server.waitForRequests(2);
    const blocked = await s.inst.run(["run", "-s", id, "-p", "x"]);
    expect(blocked.stderr).toContain("is open in another rienda");
    s.server.script({ text: "forked" });
    const forked = await s.inst.run(["run", "-s", id, "--fork", "-p", "x"]);
    expect(forked.code).toBe(0);
    holder.kill("SIGTERM");
    await holder.done;
  });

  test("--at continues from an earlier answer on a new branch of the same file; --at a prompt replaces it", async () => {
    s = await scenario();
    const id = await runOnce(s, ["-a", "coder", "-p", "q1"], "a1");
    await runOnce(s, ["-s", id, "-p", "q2"], "a2");
    const path = sessionFile(s.inst.home, id);
    const [q1, a1, q2] = messageEntries(path);
    await runOnce(s, ["-s", id, "--at", String(a1!.id), "-p", "q2 again"], "a2'");
    const body = bodyText(s, 2);
    expect(body).toContain("a1");
    expect(body).not.toContain('"q2"');
    const entries = readEntries(path);
    expect(entries.some((e) => e.kind === "leaf" && e.targetId === a1!.id)).toBe(true);
    const messages = messageEntries(path);
    expect(messages).toHaveLength(6);
    expect(messages[4]).toMatchObject({ parentId: a1!.id });
    // At a prompt: the new prompt takes its place, hanging from the prompt's parent.
    await runOnce(s, ["-s", id, "--at", String(q2!.id), "-p", "q2 edited"], "a2''");
    expect(messageEntries(path).at(-2)).toMatchObject({ parentId: a1!.id });
    await runOnce(s, ["-s", id, "--at", String(q1!.id), "-p", "start over"], "fresh");
    expect(messageEntries(path).at(-2)).toMatchObject({ parentId: null });
    expect(bodyText(s, 4)).not.toContain("q1");
    const unknown = await s.inst.run(["run", "-s", id, "--at", "nope", "-p", "x"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('has no message "nope"');
  });

  test("--at an answer that calls tools is refused before anything is written", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "done" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "go"])).stderr);
    const path = sessionFile(s.inst.home, id);
    const before = readFileSync(path);
    const [, call, results] = messageEntries(path);
    for (const at of [call!.id, results!.id]) {
      const r = await s.inst.run(["run", "-s", id, "--at", String(at), "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/calls tools|carries tool results/);
    }
    expect(readFileSync(path)).toEqual(before);
  });

  test("--no-session (--ephemeral) writes nothing, also continuing a session", async () => {
    s = await scenario();
    s.server.script({ text: "gone" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--no-session", "--json"]);
    expect(r.code).toBe(0);
    expect(jsonEvents(r.stdout)[0]).toMatchObject({ type: "run_start", sessionId: null });
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
    const id = await runOnce(s, ["-a", "coder", "-p", "kept"], "k");
    const before = readFileSync(sessionFile(s.inst.home, id));
    s.server.script({ text: "what if" });
    const e = await s.inst.run(["run", "-s", id, "--ephemeral", "-p", "what if?"]);
    expect(e.code).toBe(0);
    expect(e.stderr).not.toContain("session:");
    expect(bodyText(s, 2)).toContain("kept");
    expect(readFileSync(sessionFile(s.inst.home, id))).toEqual(before);
    expect(sessionFiles(s.inst.home)).toHaveLength(1);
  });
});

describe("sessions show", () => {
  async function toolSession(sc: Scenario): Promise<string> {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\\n");
    sc.server.script(
      {
        thinking: "I should list",
        text: "checking",
        toolCalls: [{ id: "c1", name: "shell", arguments: { command: `printf '${long}'` } }],
        usage: { input: 100, output: 20 },
      },
      { text: "forty lines", usage: { input: 200, output: 5 } },
    );
    const r = await sc.inst.run(["run", "-a", "coder", "-p", "count"]);
    expect(r.code).toBe(0);
    return sessionIdFrom(r.stderr);
  }

  test("plain: the branch with tool calls, capped results, usage and totals; --thinking adds thinking", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]", protocol: "anthropic" });
    const id = await toolSession(s);
    const r = await s.inst.run(["sessions", "show", id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`session ${id} · agent coder · model p/m`);
    expect(r.stdout).toContain("── user");
    expect(r.stdout).toContain("count");
    expect(r.stdout).toContain('→ shell {"command":');
    expect(r.stdout).toContain("← shell:");
    const result = r.stdout.slice(r.stdout.indexOf("← shell:"));
    expect(result).toContain("line 20\n");
    expect(result).not.toContain("line 21");
    expect(r.stdout).toMatch(/\[… \d+ more characters \(20 more lines\) not shown\]/);
    expect(r.stdout).toContain("100 in, 20 out");
    expect(r.stdout).toContain("total: 2 answers, 300 tokens in, 25 out");
    expect(r.stdout).not.toContain("I should list");
    expect((await s.inst.run(["sessions", "show", id, "--thinking"])).stdout).toContain("thinking: I should list");
  });

  test("--json gives the header and entries; --markdown fences results; unknown ids fail", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const id = await toolSession(s);
    const json = JSON.parse((await s.inst.run(["sessions", "show", id, "--json"])).stdout) as {
      header: { id: string };
      entries: { kind: string }[];
      branch: string[];
      leafId: string;
    };
    expect(json.header.id).toBe(id);
    expect(json.entries.filter((e) => e.kind === "message")).toHaveLength(4);
    expect(json.branch.at(-1)).toBe(json.leafId);
    const md = (await s.inst.run(["sessions", "show", id, "--markdown"])).stdout;
    expect(md).toContain(`### Session \`${id}\``);
    expect(md).toContain("<details><summary>result of shell</summary>");
    expect(md).toContain("**assistant**");
    const unknown = await s.inst.run(["sessions", "show", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown session "nope"');
    expect((await s.inst.run(["sessions", "show", id, "--json", "--tree"])).stderr).toContain("choose one of");
  });
});

describe("a session in the Go Rienda's format", () => {
  test("imports, shows its tree with both branches, branches with --at, and exports", async () => {
    s = await scenario();
    const imported = await s.inst.run(["sessions", "import", GO_FIXTURE]);
    expect(imported.stderr).not.toContain("rienda:");
    expect(imported.stdout).toBe(`${GO_ID}\n`);
    const tree = (await s.inst.run(["sessions", "show", GO_ID, "--tree"])).stdout;
    expect(tree).toContain("title: Parser bug");
    expect(tree).toMatch(/├─ {3}01jq3v8m6wb0000000000000c3 {2}user: Now add a test/);
    expect(tree).toMatch(/└─ \* 01jq3v8m6wb0000000000000c5 {2}user: Explain the fix instead/);
    expect(tree).toContain("01jq3v8m6wb0000000000000c6  assistant: The loop stopped one token early.  (leaf)");
    const plain = (await s.inst.run(["sessions", "show", GO_ID])).stdout;
    expect(plain).toContain("Explain the fix instead");
    expect(plain).not.toContain("Now add a test");
    // Continue on the first branch.
    await runOnce(s, ["-s", GO_ID, "--at", "01jq3v8m6wb0000000000000c4", "-p", "and docs?"], "docs added");
    expect(bodyText(s, 0)).toContain("Added parser_test.go.");
    expect(bodyText(s, 0)).not.toContain("Explain the fix");
    const exported = await s.inst.run(["sessions", "export", GO_ID]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "header", id: GO_ID, workdir: s.inst.workspace });
    // Every Go line kept byte for byte after the header, then the new ones.
    const go = readFileSync(GO_FIXTURE, "utf8").trimEnd().split("\n");
    expect(lines.slice(1, go.length)).toEqual(go.slice(1));
    expect(lines.length).toBeGreaterThan(go.length);
  });
});

describe("export and import", () => {
  test("an export with an attachment imports into another home whole; import never overwrites and checks the file", async () => {
    s = await scenario();
    s.inst.file("notes.txt", "the notes\n");
    s.server.script({ text: "read" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarise", "-f", "notes.txt"]);
    const id = sessionIdFrom(r.stderr);
    const exported = await s.inst.run(["sessions", "export", id]);
    const file = join(s.inst.root, "export.jsonl");
    writeFileSync(file, exported.stdout);
    expect(exported.stdout).toContain('"type":"attachment"');
    const again = await s.inst.run(["sessions", "import", file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`session ${id} already exists`);
    const other = await scenario();
    try {
      const imported = await other.inst.run(["sessions", "import", file]);
      expect(imported.code).toBe(0);
      const path = sessionFile(other.inst.home, id);
      expect(readFileSync(path, "utf8").split("\n").slice(1)).toEqual(exported.stdout.split("\n").slice(1));
      other.server.script({ text: "still there" });
      expect((await other.inst.run(["run", "-s", id, "-p", "again"])).code).toBe(0);
      expect(JSON.stringify(other.server.requests[0]!.body)).toContain("the notes");
      // Broken files are refused, and nothing is written.
      const torn = join(other.inst.root, "torn.jsonl");
      writeFileSync(torn, exported.stdout.replace(id, "01jq0000000000000000000009").slice(0, -10));
      const t = await other.inst.run(["sessions", "import", torn]);
      expect(t.code).toBe(1);
      expect(t.stderr).toContain("the last line is incomplete");
      const junk = join(other.inst.root, "junk.jsonl");
      writeFileSync(junk, "hello\n");
      expect((await other.inst.run(["sessions", "import", junk])).stderr).toContain("not a session header");
      expect(sessionFiles(other.inst.home)).toHaveLength(1);
    } finally {
      await other.dispose();
    }
  });
});

describe("rm and prune", () => {
  test("rm removes a session, but never one another process holds", async () => {
    s = await scenario();
    const id = await runOnce(s, ["-a", "coder", "-p", "x"], "y");
    s.server.script({ hang: true });
    const holder = s.inst.start(["run", "-s", id, "-p", "busy"]);
    await s.server.waitForRequests(2);
    const refused = await s.inst.run(["sessions", "rm", id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is open in another rienda");
    holder.kill("SIGTERM");
    await holder.done;
    const path = sessionFile(s.inst.home, id);
    const removed = await s.inst.run(["sessions", "rm", id]);
    expect(removed.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect((await s.inst.run(["sessions", "rm", id])).stderr).toContain(`unknown session "${id}"`);
  });

  test("prune --older-than removes old sessions, keeps new ones and held ones", async () => {
    s = await scenario();
    const oldOne = await runOnce(s, ["-a", "coder", "-p", "old"], "o");
    const held = await runOnce(s, ["-a", "coder", "-p", "old too"], "o2");
    const fresh = await runOnce(s, ["-a", "coder", "-p", "new"], "n");
    // Make two of them 40 days old by their entries' times.
    for (const id of [oldOne, held]) {
      const path = sessionFile(s.inst.home, id);
      writeFileSync(
        path,
        readFileSync(path, "utf8").replace(/"createdAt":"[^"]+"/g, '"createdAt":"2020-01-01T00:00:00.000Z"'),
      );
    }
    // Held by a live process (a run holding it would also have written a new entry, making it new).
    const holder = spawn("sleep", ["30"]);
    writeFileSync(
      sessionFile(s.inst.home, held).replace(/\.jsonl$/, ".lock"),
      JSON.stringify({ pid: holder.pid, host: hostname(), token: "t" }),
    );
    const dry = await s.inst.run(["sessions", "prune", "--older-than", "30d", "--dry-run"]);
    expect(dry.stdout).toContain(oldOne);
    expect(existsSync(sessionFile(s.inst.home, oldOne))).toBe(true);
    const r = await s.inst.run(["sessions", "prune", "--older-than", "30d"]);
    expect(r.stdout).toBe(`${oldOne}\n`);
    expect(r.stderr).toContain(`kept ${held}`);
    expect(r.code).toBe(1);
    holder.kill();
    const left = sessionFiles(s.inst.home).map((f) => f.split("/").at(-1));
    expect(left.sort()).toEqual([`${held}.jsonl`, `${fresh}.jsonl`].sort());
    expect((await s.inst.run(["sessions", "prune", "--older-than", "soon"])).stderr).toContain("is not an age");
  });
});
