/**
 * Every limit records itself as a limit (docs/cli.md, "Limits"): a run
 * that `--timeout` ended is continued with the model told that a limit
 * stopped the request, as after `--max-turns`, never that the user
 * interrupted it; the sessions of subagents cut by the same limit say so
 * too.
 */
import { afterEach, expect, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const LIMIT_TEXT =
  "[This request was stopped before it was finished: the run reached its limit of model requests, cost or time. What follows is a new message.]";

/** What opens the next user turn after an answer a time limit cut while it streamed. */
const CUT_BY_LIMIT =
  "[Your previous answer was stopped at this point by a run limit (time); it is incomplete. What follows is a new message.]";

/** The texts of every message of Chat Completions request `index`. */
function contents(index: number): unknown[] {
  return (s!.server.requests[index]!.body as { messages: { content: unknown }[] }).messages.map((m) => m.content);
}

test("--timeout before any answer: the session records a limit, and -s tells the model a limit stopped the request", async () => {
  s = await scenario();
  // Only the opening event: the limit comes before any text.
  s.server.script({ text: "never finished", hang: true, hangAfter: 1 }, { text: "back again" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "1s"]);
  expect(r.code).toBe(3);
  const id = sessionIdFrom(r.stderr);
  expect(readEntries(sessionFile(s.inst.home, id)).filter((e) => e.kind === "interruption")).toEqual([
    expect.objectContaining({ reason: "limit" }),
  ]);
  const again = await s.inst.run(["run", "-s", id, "-p", "try again"]);
  expect(again.code).toBe(0);
  expect(contents(1).slice(1)).toEqual(["go", LIMIT_TEXT, "try again"]);
  expect(JSON.stringify(s.server.requests[1]!.body)).not.toContain("interrupted");
});

test("--timeout while the answer streams: the part that came is kept, marked limit, and sent back with the limit's note", async () => {
  s = await scenario();
  s.server.script({ text: "never finished", hang: true, hangAfter: 1_000 }, { text: "back again" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "1s"]);
  expect(r.code).toBe(3);
  const id = sessionIdFrom(r.stderr);
  const entries = readEntries(sessionFile(s.inst.home, id));
  expect(entries.find((e) => e.kind === "message" && e.role === "assistant")).toMatchObject({
    interrupted: "limit",
    blocks: [{ type: "text", text: "never finished" }],
  });
  expect((await s.inst.run(["run", "-s", id, "-p", "try again"])).code).toBe(0);
  expect(contents(1).slice(1)).toEqual(["go", "never finished", `${CUT_BY_LIMIT}\n\ntry again`]);
});

test("--timeout during a subagent: the child's session records the limit too", async () => {
  s = await scenario({ agentFrontmatter: "agents: [helper]" });
  s.inst.agent("helper", "---\ndescription: Helps.\nmodel: p/m\n---\nYou help.\n");
  s.server.script(
    { toolCalls: [{ id: "c1", name: "agent__helper", arguments: { prompt: "help" } }] },
    { text: "never", hang: true },
  );
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "2s"]);
  expect(r.code).toBe(3);
  const files = sessionFiles(s.inst.home);
  expect(files).toHaveLength(2);
  for (const file of files) {
    const interruptions = readEntries(file).filter((e) => e.kind === "interruption");
    expect(interruptions.map((e) => e.reason)).toEqual(["limit"]);
  }
});

test("an interrupt by the user is still recorded as one", async () => {
  s = await scenario();
  s.server.script({ text: "never finished", hang: true });
  const child = s.inst.start(["run", "-a", "coder", "-p", "go"]);
  await s.server.waitForRequests(1);
  child.kill("SIGINT");
  const r = await child.done;
  expect(r.code).toBe(130);
  const interruption = readEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr))).find(
    (e) => e.kind === "interruption",
  );
  expect(interruption).toBeDefined();
  expect(interruption!.reason).toBeUndefined();
});
