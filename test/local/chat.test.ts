/**
 * The chat in tmux against a real llama.cpp server and the puppet model
 * (test/local/fixtures/README.md says what it answers): the full-screen
 * chat with the real tool call and its live output, and the line chat
 * (`--plain`), each answering and continuing the conversation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { localConfig, puppetAgent, startLlamaServer, type LlamaServer } from "./support/llama-server.ts";

let server: LlamaServer;
let inst: Instance | undefined;
let term: Terminal | undefined;
beforeAll(async () => {
  server = await startLlamaServer();
});
afterAll(async () => {
  await server.kill();
});
afterEach(() => {
  term?.dispose();
  term = undefined;
  inst?.dispose();
  inst = undefined;
});

/** `args` as given: the tmux helper adds no `--plain` of its own (fullScreen). */
function open(tools: string[], args: string[]): Terminal {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  inst = new Instance();
  inst.config(localConfig(server.url));
  inst.agent("puppet", puppetAgent(tools));
  term = Terminal.start(inst, { args, fullScreen: true, width: 80, height: 24, env: { NO_COLOR: "1" } });
  return term;
}

/** The full-screen chat is ready when no turn runs and the status line names the agent. */
async function idle(t: Terminal, turns: number): Promise<string> {
  await t.waitFor(
    (h) =>
      h.split("\n─ ").length - 1 >= turns &&
      !/^● /m.test(t.screen()) &&
      /(^|\n)agent puppet · model local\/puppet/.test(t.screen()),
    30_000,
  );
  return t.screen();
}

describe("the chat against llama.cpp", () => {
  test("full-screen: the model's real tool call runs with its output shown, then its answer; the conversation goes on", async () => {
    const t = open(["shell"], ["-a", "puppet", "-y"]);
    await idle(t, 0);
    t.line("Check the shell.");
    const screen = await idle(t, 1);
    expect(screen).toContain("• $ echo puppet-ok");
    expect(screen).toContain("  │ puppet-ok");
    expect(screen).toContain("Tool result received: done!");
    expect(screen).toMatch(/─ \d+\.\ds · [\d,]+ in \/ [\d,]+ out tokens/);
    // The second message goes over the same session: the history holds the tool result.
    t.line("And now?");
    const next = await idle(t, 2);
    expect(next.split("Tool result received: done!").length - 1).toBe(2);
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
  });

  test("--plain: the line chat answers and continues", async () => {
    const t = open([], ["--plain", "-a", "puppet"]);
    await t.waitForPrompt();
    t.line("Say hello.");
    expect(await t.waitForPrompt(1)).toContain("Hello from the puppet model.");
    expect(t.screen()).not.toContain("agent puppet · model local/puppet ·");
    t.line("Again.");
    const again = await t.waitForPrompt(2);
    expect(again.split("Hello from the puppet model.").length - 1).toBe(2);
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
  });
});
