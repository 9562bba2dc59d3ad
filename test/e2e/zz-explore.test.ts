import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionIdFrom } from "../support/session-reader.ts";
import { Terminal } from "../support/tmux.ts";
setDefaultTimeout(60_000);
const TEST_SERVER = resolve(import.meta.dir, "../fixtures/mcp/stdio-server.mjs");
let s: Scenario | undefined; let term: Terminal | undefined; let other: Terminal | undefined;
afterEach(async () => { term?.dispose(); other?.dispose(); await s?.dispose(); });
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

const PUBLISH = `module.exports = { description: "P", parameters: { type: "object", properties: {} },
  execute(ctx) { return ctx.confirm({ title: "Publish", body: "Push?" }) ? "pushed" : { text: "no", isError: true }; } };`;

test("ctrl-c at confirm, subagent tool, /agent to hanging mcp", async () => {
  s = await scenario({ agentFrontmatter: "tools: [publish]\nagents: [reviewer]",
    configExtra: `mcp_servers:\n  t: { command: node, args: ${JSON.stringify([TEST_SERVER, "--never-initialize"])} }` });
  s.inst.tool("publish", PUBLISH);
  s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\ntools: [shell]\n---\nYou review.\n");
  s.inst.agent("mcpy", "---\ndescription: Mcp.\nmodel: p/m\ntools: [t__pid]\n---\nMcp.\n");
  s.server.script(
    { toolCalls: [{ id: "x1", name: "publish", arguments: {} }] },
    { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "check" } }] },
    { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "echo child-running; sleep 30" } }] },
    { text: "after sub" },
  );
  term = Terminal.start(s.inst, { args: ["-a", "coder"] });
  await term.waitForPrompt();
  term.line("publish");
  await term.waitFor("[y/N]");
  term.keys("C-c");
  await sleep(1500);
  console.log("CONFIRM:\n" + term.screen());
  term.line("review");
  await term.waitFor("child-running");
  term.keys("C-c");
  await sleep(1500);
  console.log("SUB:\n" + term.screen());
  term.line("/agent mcpy");
  await sleep(2000);
  term.keys("C-c");
  await sleep(2000);
  console.log("MCP:\n" + term.screen());
  term.keys("C-c");
  await sleep(1000);
  console.log("MCP2:\n" + term.screen());
});
