/**
 * A process killed mid-turn (kill -9, a crash, the machine going down)
 * leaves its prompt unanswered and its lock stale. The next process that
 * takes the lock over records the interruption (docs/sessions.md, "The
 * lock"), so the next prompt reaches the model as a message of its own,
 * never glued to the dangling one: in `rpc -s` as in `run -s`.
 */
import { afterEach, expect, test } from "bun:test";
import { RpcDriver } from "../support/rpc-driver.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const INTERRUPTED = "[The user interrupted this request before it was finished. What follows is a new message.]";

/** The role and text of every message of Chat Completions request `index`, the system prompt left out. */
const conversation = (index: number): [string, unknown][] =>
  (s!.server.requests[index]!.body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role !== "system")
    .map((m) => [m.role, m.content]);

/** Starts an rpc run whose model never answers and kills the process with SIGKILL mid-turn; the session id. */
async function killedMidTurn(): Promise<string> {
  const rpc = new RpcDriver(s!.inst, ["-a", "coder"]);
  await rpc.waitFor((l) => l.type === "ready");
  rpc.send({ id: "p", type: "prompt", text: "the dangling prompt" });
  const id = ((await rpc.response("p")).data as { session_id: string }).session_id;
  await s!.server.waitForRequests(1);
  rpc.child.kill("SIGKILL");
  await rpc.exited;
  return id;
}

test("rpc -s after kill -9: the interruption is recorded, the next prompt is a message of its own", async () => {
  s = await scenario();
  s.server.script({ hang: true }, { text: "fresh answer" });
  const id = await killedMidTurn();
  const rpc = new RpcDriver(s.inst, ["-s", id]);
  try {
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: "n", type: "prompt", text: "the next prompt" });
    expect(await rpc.runEnd("n")).toMatchObject({ reason: "end_turn" });
  } finally {
    rpc.child.kill("SIGKILL");
  }
  expect(conversation(1)).toEqual([
    ["user", "the dangling prompt"],
    ["assistant", INTERRUPTED],
    ["user", "the next prompt"],
  ]);
  const entries = readEntries(sessionFile(s.inst.home, id));
  expect(entries.filter((e) => e.kind === "interruption")).toHaveLength(1);
});

test("run -s after kill -9 does the same", async () => {
  s = await scenario();
  s.server.script({ hang: true }, { text: "fresh answer" });
  const id = await killedMidTurn();
  const r = await s.inst.run(["run", "-s", id, "-p", "the next prompt"]);
  expect(r.code).toBe(0);
  expect(conversation(1)).toEqual([
    ["user", "the dangling prompt"],
    ["assistant", INTERRUPTED],
    ["user", "the next prompt"],
  ]);
});

test("a session closed cleanly after its answer gets no interruption when opened again", async () => {
  s = await scenario();
  s.server.script({ text: "answered" }, { text: "again" });
  const first = await s.inst.run(["run", "-a", "coder", "-p", "one"]);
  const id = /^session: (\S+)$/m.exec(first.stderr)![1]!;
  await s.inst.run(["run", "-s", id, "-p", "two"]);
  expect(readEntries(sessionFile(s.inst.home, id)).filter((e) => e.kind === "interruption")).toEqual([]);
});
