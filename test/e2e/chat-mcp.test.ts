/**
 * An MCP server's tools in the interactive chat: one server for the whole
 * conversation, Ctrl-C cancelling a call without ending the server, and the
 * server's process group ended when the chat ends.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { waitFor } from "../support/instance.ts";
import { processRunning } from "../support/processes.ts";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { Terminal } from "../support/tmux.ts";

// A terminal, a binary, a provider and an MCP server per test: slow machines need room.
setDefaultTimeout(60_000);

const TEST_SERVER = resolve(import.meta.dir, "../fixtures/mcp/stdio-server.mjs");

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

describe("MCP tools in the chat", () => {
  test("one server serves the whole conversation; Ctrl-C cancels its call and the chat goes on; quitting ends the server's group", async () => {
    const root = `/tmp/mcp-chat-${process.pid}-${Date.now()}`;
    const log = `${root}.log`;
    const pidFile = `${root}.pid`;
    s = await scenario({
      agentFrontmatter: "tools: [t__pid, t__slow]",
      configExtra: `mcp_servers:\n  t: { command: node, args: ${JSON.stringify([TEST_SERVER, "--log", log, "--child", pidFile])} }`,
    });
    s.server.script(
      { toolCalls: [{ id: "a", name: "t__pid", arguments: {} }] },
      { text: "Got the pid." },
      { toolCalls: [{ id: "b", name: "t__slow", arguments: {} }] },
      { toolCalls: [{ id: "c", name: "t__pid", arguments: {} }] },
      { text: "Same server." },
    );
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("which pid?");
    await term.waitForPrompt(1);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 10_000, "the server's child");
    const child = Number(readFileSync(pidFile, "utf8"));

    term.line("now the slow one");
    await term.waitFor("progress 2/3");
    term.keys("C-c");
    await term.waitForPrompt(2);
    // The server was told, and kept running.
    await waitFor(() => /^cancelled \d+$/m.test(readFileSync(log, "utf8")), 10_000, "notifications/cancelled");
    expect(processRunning(child)).toBe(true);

    term.line("again?");
    await term.waitForPrompt(3);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);

    const first = toolResultsOf(s.server.requests[1]!)[0]!;
    expect(first).toMatch(/^\d+$/);
    const results = toolResultsOf(s.server.requests[4]!);
    expect(results[1]).toBe("the run was interrupted before this tool call finished");
    // Still the first server process: one start for the whole chat.
    expect(results[2]).toBe(first);
    expect(readFileSync(log, "utf8").match(/^started/gm)).toHaveLength(1);
    await waitFor(() => !processRunning(child), 5_000, "the server's child to end with the chat");
  });

  test("Ctrl-C gives up on /agent while the new agent's MCP server does not start; nothing changes and the chat goes on", async () => {
    const log = `/tmp/mcp-chat-hang-${process.pid}-${Date.now()}.log`;
    s = await scenario({
      configExtra: `mcp_servers:\n  t: { command: node, args: ${JSON.stringify([TEST_SERVER, "--never-initialize", "--log", log])}, startup_timeout_ms: 600000 }`,
    });
    s.inst.agent("linked", "---\ndescription: Uses the server.\nmodel: p/m\ntools: [t__pid]\n---\nLinked.\n");
    s.server.script({ text: "Still the coder." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"], env: { NO_COLOR: "1" } });
    await term.waitForPrompt();
    term.line("/agent linked");
    await waitFor(() => existsSync(log) && /^started/m.test(readFileSync(log, "utf8")), 15_000, "the server to start");
    term.keys("C-c");
    await term.waitFor("interrupted: /agent changed nothing");
    await term.waitForPrompt();
    term.line("who are you?");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("Still the coder.");
    expect((s.server.requests[0]!.body as { messages: { content: unknown }[] }).messages[0]!.content).toBe(
      "You are a test agent.",
    );
    // The server given up on does not linger beside the chat.
    const serverPid = Number(/^started (\d+)$/m.exec(readFileSync(log, "utf8"))![1]);
    await waitFor(() => !processRunning(serverPid), 10_000, "the server given up on to end");
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
  });

  test("a terminating signal ends the chat while /agent waits for an MCP server", async () => {
    const log = `/tmp/mcp-chat-term-${process.pid}-${Date.now()}.log`;
    s = await scenario({
      configExtra: `mcp_servers:\n  t: { command: node, args: ${JSON.stringify([TEST_SERVER, "--never-initialize", "--log", log])}, startup_timeout_ms: 600000 }`,
    });
    s.inst.agent("linked", "---\ndescription: Uses the server.\nmodel: p/m\ntools: [t__pid]\n---\nLinked.\n");
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/agent linked");
    await waitFor(() => existsSync(log) && /^started/m.test(readFileSync(log, "utf8")), 15_000, "the server to start");
    term.signal("SIGTERM");
    expect(await term.exitCode()).toBe(130);
  });
});
