/**
 * One figure bounds a run tree (docs/cli.md, "Limits"): the top run's
 * `max_turns` counts the model requests of the run and of every subagent
 * run under it, however many calls fan out and however deep; a subagent's
 * own frontmatter `max_turns` bounds its own run besides. In the chat
 * each message is a tree of its own.
 */
import { afterEach, expect, test } from "bun:test";
import { RpcDriver } from "../support/rpc-driver.ts";
import { jsonEvents, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const runEnd = (stdout: string) => jsonEvents(stdout).at(-1)!;
const call = (id: string, agent: string) => ({ id, name: `agent__${agent}`, arguments: { prompt: `task ${id}` } });

/** Agents: coder → helper → worker; each helper call fans out three workers. */
async function tree(helperFrontmatter = ""): Promise<Scenario> {
  const made = await scenario({ agentFrontmatter: "agents: [helper]" });
  made.inst.agent(
    "helper",
    `---\ndescription: Helps.\nmodel: p/m\nagents: [worker]\n${helperFrontmatter}---\nYou help.\n`,
  );
  made.inst.agent("worker", "---\ndescription: Works.\nmodel: p/m\n---\nYou work.\n");
  return made;
}

test("--max-turns 2 bounds the whole tree: fan-out and depth stop at two requests in all, exit 3", async () => {
  s = await tree();
  // The answers a tree without a bound would get: the top fans out to three helpers, each to three workers.
  const helperFans = { toolCalls: [call("w1", "worker"), call("w2", "worker"), call("w3", "worker")] };
  s.server.script(
    { toolCalls: [call("h1", "helper"), call("h2", "helper"), call("h3", "helper")] },
    helperFans,
    helperFans,
    helperFans,
    ...Array(20).fill({ text: "done" }),
  );
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "2", "--json"]);
  expect(r.code).toBe(3);
  expect(s.server.requests).toHaveLength(2);
  expect(runEnd(r.stdout)).toMatchObject({
    type: "run_end",
    reason: "max_turns",
    message: "the run reached its limit of 2 model requests (--max-turns 2) before the agent finished",
  });
  // The helpers that found the budget spent were stopped by it, and said so to their parent.
  const ends = jsonEvents(r.stdout).filter((e) => e.type === "subagent_end");
  expect(ends.length).toBeGreaterThan(0);
  expect(ends.every((e) => e.reason === "max_turns")).toBe(true);
});

test("the same tree with a budget large enough runs to its end, every request counted once", async () => {
  s = await tree();
  s.server.script(
    { toolCalls: [call("h1", "helper")] },
    { toolCalls: [call("w1", "worker")] },
    { text: "worked" },
    { text: "helped" },
    { text: "all done" },
  );
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "5", "--json"]);
  expect(r.code).toBe(0);
  expect(s.server.requests).toHaveLength(5);
  expect(runEnd(r.stdout)).toMatchObject({ reason: "end_turn" });
});

test("a subagent's own max_turns bounds its run within the tree", async () => {
  s = await tree("max_turns: 1\n");
  s.server.script(
    { toolCalls: [call("h1", "helper")] },
    { toolCalls: [call("w1", "worker")] },
    { text: "worked" },
    { text: "the top goes on" },
  );
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--max-turns", "10", "--json"]);
  expect(r.code).toBe(0);
  const helperEnd = jsonEvents(r.stdout).find((e) => e.type === "subagent_end" && e.parent === "h1");
  expect(helperEnd).toMatchObject({
    reason: "max_turns",
    message: `the run reached its limit of 1 model request (max_turns: 1 in ${s.inst.riendaPath("agents", "helper.md")}) before the agent finished`,
  });
  expect(s.server.requests).toHaveLength(4);
});

test("over rpc (the chat's backend) each prompt is a tree of its own: the frontmatter's max_turns starts again", async () => {
  s = await tree();
  s.inst.agent(
    "coder",
    "---\ndescription: A test agent.\nmodel: p/m\nagents: [helper]\nmax_turns: 2\n---\nYou are a test agent.\n",
  );
  s.server.script({ toolCalls: [call("h1", "helper")] }, { text: "helped" }, { text: "second done" });
  const rpc = new RpcDriver(s.inst, ["-a", "coder"]);
  try {
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: "p1", type: "prompt", text: "one" });
    // Two requests (the top's and the helper's) spend the budget: the top stops before its third.
    expect(await rpc.runEnd("p1")).toMatchObject({ reason: "max_turns" });
    rpc.send({ id: "p2", type: "prompt", text: "two" });
    expect(await rpc.runEnd("p2")).toMatchObject({ reason: "end_turn" });
    expect(s.server.requests).toHaveLength(3);
  } finally {
    rpc.child.kill("SIGKILL");
  }
});
