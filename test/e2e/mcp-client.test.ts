/**
 * MCP servers' tools in runs, against real servers: the reference
 * server-everything and server-filesystem from node_modules, and the small
 * test server of test/fixtures/mcp (crash, silence, garbage on stdout).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { waitFor } from "../support/instance.ts";
import { sessionFiles } from "../support/session-reader.ts";
import {
  scenario,
  toolNamesOf,
  toolResultsOf,
  type Scenario,
  jsonEvents,
  mcpServers,
  nodeMcpServer,
} from "../support/scenario.ts";
import { processRunning } from "../support/processes.ts";

const ROOT = resolve(import.meta.dir, "../..");
const TEST_SERVER = join(ROOT, "test/fixtures/mcp/stdio-server.mjs");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("MCP tools in a run", () => {
  test("server-everything: the model sees server__tool names with the server's schema, and a call's result comes back", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [everything__echo, everything__get-sum]",
      configExtra: mcpServers({ everything: nodeMcpServer(EVERYTHING, ["stdio"]) }),
    });
    s.server.script(
      { toolCalls: [{ id: "c1", name: "everything__get-sum", arguments: { a: 2, b: 40 } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "add"]);
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["everything__echo", "everything__get-sum"]);
    const tools = (
      s.server.requests[0]!.body as {
        tools: { function: { parameters: { properties: object; required: string[] } } }[];
      }
    ).tools;
    expect(Object.keys(tools[1]!.function.parameters.properties)).toEqual(["a", "b"]);
    expect(tools[1]!.function.parameters.required).toEqual(["a", "b"]);
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain("42");
  });

  test("server__* declares every tool of the server, in the server's order, names cleaned", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [shell, t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER) }),
    });
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[0]!)).toEqual([
      "shell",
      "t__echo",
      "t__fail",
      "t__mixed",
      "t__slow",
      "t__crash",
      "t__pid",
      "t__env",
      "t__big",
      "t__odd_name_with_chars",
      "t__modern",
    ]);
  });

  test("arguments are checked against the server's schema before the server is called; isError and other content are honoured; results are capped", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER) }),
    });
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "t__echo", arguments: { text: 5 } },
          { id: "b", name: "t__echo", arguments: { text: "hi" } },
          { id: "c", name: "t__fail", arguments: {} },
          { id: "d", name: "t__mixed", arguments: {} },
          { id: "e", name: "t__big", arguments: {} },
          { id: "f", name: "t__odd_name_with_chars", arguments: {} },
          { id: "g", name: "t__modern", arguments: { n: 1.5 } },
          { id: "h", name: "t__modern", arguments: { n: 3 } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results[0]).toBe('invalid arguments for tool "t__echo":\n- text: must be string');
    expect(results[1]).toBe("echo: hi");
    expect(results[2]).toBe("it failed on purpose");
    expect(results[3]).toBe(
      "a picture:\n[image: image/png, 8 bytes, not shown]\n[resource link: file:///tmp/report.txt (report)]",
    );
    expect(results[4]!.endsWith("\n[output truncated]")).toBe(true);
    expect(results[4]!.length).toBeLessThan(300 * 1024);
    expect(results[5]).toBe("odd.name/with:chars ran");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; id?: string; isError?: boolean });
    const errors = events.filter((e) => e.type === "tool_result").map((e) => [e.id, e.isError]);
    expect(errors).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", false],
      ["e", false],
      ["f", false],
      ["g", true],
      ["h", false],
    ]);
    // A 2020-12 schema: checked as the draft-07 it shares its keywords with, and sent to the model as the server wrote it.
    expect(results[6]).toBe('invalid arguments for tool "t__modern":\n- n: must be integer');
    expect(results[7]).toBe("n is 3");
    const sent = (
      s.server.requests[0]!.body as { tools: { function: { name: string; parameters: { $schema?: string } } }[] }
    ).tools;
    expect(sent.find((t) => t.function.name === "t__modern")!.function.parameters.$schema).toBe(
      "https://json-schema.org/draft/2020-12/schema",
    );
  });

  test("a beforeToolExecute refusal means the server is never called; afterToolExecute sees the result", async () => {
    const log = join("/tmp", `mcp-hook-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [t__*]\nhooks: [gate]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--log", log]) }),
    });
    s.inst.hook(
      "gate",
      `module.exports = {
        beforeToolExecute(ctx, call) { if (call.name === "t__pid") return { allow: false, reason: "no pids today" }; },
        afterToolExecute(ctx, call, result) { if (call.name === "t__echo") return { text: result.text + " (seen by the hook)", isError: false }; },
      };`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "t__pid", arguments: {} },
          { id: "b", name: "t__echo", arguments: { text: "x" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["no pids today", "echo: x (seen by the hook)"]);
    // On the server's side: the echo call arrived, the refused one never did.
    const calls = readFileSync(log, "utf8").match(/^call .*$/gm);
    expect(calls).toEqual(["call echo"]);
  });

  test("a subagent uses MCP tools of its own: its hooks gate them, its events in --json carry parent, its usage adds up, and its server ends with the run", async () => {
    s = await scenario({
      agentFrontmatter: "agents: [helper]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER) }),
    });
    s.inst.agent(
      "helper",
      "---\ndescription: Answers with the server's pid.\nmodel: p/m\ntools: [t__pid, t__echo]\nhooks: [tag]\n---\nHelp.\n",
    );
    s.inst.hook(
      "tag",
      `module.exports = {
        beforeToolExecute(ctx, call) { if (call.name === "t__echo") return { allow: false, reason: "no echo in the child" }; },
        afterToolExecute(ctx, call, result) { return { text: "tagged " + result.text }; },
      };`,
    );
    s.server.script(
      {
        toolCalls: [{ id: "c1", name: "agent__helper", arguments: { prompt: "pid?" } }],
        usage: { input: 10, output: 1 },
      },
      {
        toolCalls: [
          { id: "k1", name: "t__pid", arguments: {} },
          { id: "k2", name: "t__echo", arguments: { text: "x" } },
        ],
        usage: { input: 20, output: 2 },
      },
      { text: "the pid", usage: { input: 30, output: 3 } },
      { text: "done", usage: { input: 40, output: 4 } },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    const childResults = events.filter((e) => e.type === "tool_result" && e.parent === "c1");
    expect(childResults.map((e) => e.name)).toEqual(["t__pid", "t__echo"]);
    expect(String(childResults[0]!.text)).toMatch(/^tagged \d+$/);
    expect(childResults[1]!.text).toBe("no echo in the child");
    expect(events.find((e) => e.type === "subagent_start")?.parent).toBe("c1");
    expect(events.at(-1)).toMatchObject({
      type: "run_end",
      reason: "end_turn",
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["the pid"]);
    const pid = Number(String(childResults[0]!.text).slice("tagged ".length));
    await waitFor(() => !processRunning(pid), 5000, "the child's MCP server to end");
  });

  test("progress and log notifications show as tool output; Ctrl-C sends notifications/cancelled and ends the run", async () => {
    const log = join("/tmp", `mcp-cancel-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [t__slow]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--log", log]) }),
    });
    s.server.script({ toolCalls: [{ id: "a", name: "t__slow", arguments: {} }] }, { text: "never" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(() => run.stderr().includes("progress 2/3"), 20_000, "progress");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("[info] slow: working on it");
    expect(r.stderr).toContain("progress 1/3 first step");
    const events = readFileSync(log, "utf8");
    expect(events).toMatch(/slow (\d+)\n[\s\S]*cancelled \1\n/);
  });

  test("a progress notification that arrives in the same read as its call's result is still shown", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__quick]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"]) }),
    });
    s.server.script({ toolCalls: [{ id: "a", name: "t__quick", arguments: {} }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("tool: t__quick {}\nprogress 1/1 all at once\n");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["quick answer"]);
  });

  test("a server that writes a line longer than 64 MiB is ended, its call gets an error saying why, and the next call restarts it", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__flood, t__echo]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"]) }),
    });
    s.server.script(
      { toolCalls: [{ id: "a", name: "t__flood", arguments: {} }] },
      { toolCalls: [{ id: "b", name: "t__echo", arguments: { text: "back" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const flood = toolResultsOf(s.server.requests[1]!)[0]!;
    expect(flood).toContain(
      'MCP server "t" stopped during the call (signal SIGKILL); Rienda ended it: it wrote a line of more than 64 MiB to stdout',
    );
    expect(toolResultsOf(s.server.requests[2]!)[1]).toBe("echo: back");
  });

  test("a server that says its tools changed is listed again: server__* offers the new tool from the next request on", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"]) }),
    });
    s.server.script(
      { toolCalls: [{ id: "a", name: "t__grow", arguments: {} }] },
      { toolCalls: [{ id: "b", name: "t__grown", arguments: {} }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[0]!)).not.toContain("t__grown");
    expect(toolNamesOf(s.server.requests[1]!)).toContain("t__grown");
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["grew", "grown ran"]);
  });

  test("server__* of a server that lists no tools gives none, and says so; the run goes on", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [none__*, t__echo]",
      configExtra: mcpServers({ none: nodeMcpServer(TEST_SERVER, ["--no-tools"]), t: nodeMcpServer(TEST_SERVER) }),
    });
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('MCP server "none" lists no tools: none__* gives the agent none\n');
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["t__echo"]);
  });

  test("a server that closes its stdout and lives on is ended: its call gets an error saying why instead of waiting forever", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__mute, t__echo]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"]) }),
    });
    s.server.script(
      { toolCalls: [{ id: "a", name: "t__mute", arguments: {} }] },
      { toolCalls: [{ id: "b", name: "t__echo", arguments: { text: "back" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain(
      'MCP server "t" stopped during the call (signal SIGKILL); Rienda ended it: it closed its stdout but kept running',
    );
    expect(toolResultsOf(s.server.requests[2]!)[1]).toBe("echo: back");
  });

  test("a server that says its tools changed but never lists them again: the call still returns (within startup_timeout_ms), the old list stays", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__tease, t__echo]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"], ", startup_timeout_ms: 1500") }),
    });
    s.server.script(
      { toolCalls: [{ id: "a", name: "t__tease", arguments: {} }] },
      { toolCalls: [{ id: "b", name: "t__echo", arguments: { text: "still" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[1]!)).toEqual(["t__tease", "t__echo"]);
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["teased", "echo: still"]);
  });

  test("a server's log and progress lines reach stderr with their control characters shown, not acted on (no escape sequences)", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__ansi]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--more"]) }),
    });
    s.server.script({ toolCalls: [{ id: "a", name: "t__ansi", arguments: {} }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(String.raw`[info] ansi: title \x1b]0;pwned\x07 red \x1b[31mx\x1b[0m` + "\n");
    expect(r.stderr).toContain(String.raw`progress 1 bell \x07 done` + "\n");
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
  });

  test("a server that crashes mid-call: the call gets an error result naming it, the next call restarts it once", async () => {
    const log = join("/tmp", `mcp-crash-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--log", log]) }),
    });
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "t__pid", arguments: {} },
          { id: "b", name: "t__crash", arguments: {} },
          { id: "c", name: "t__pid", arguments: {} },
        ],
      },
      {
        toolCalls: [
          { id: "d", name: "t__crash", arguments: {} },
          { id: "e", name: "t__pid", arguments: {} },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const first = toolResultsOf(s.server.requests[1]!);
    expect(first[1]).toContain('MCP server "t" stopped during the call (exit code 3)');
    expect(first[1]).toContain("about to crash");
    expect(first[2]).toMatch(/^\d+$/);
    expect(first[2]).not.toBe(first[0]);
    const second = toolResultsOf(s.server.requests[2]!).slice(3);
    expect(second[0]).toContain('MCP server "t" stopped during the call');
    expect(second[1]).toContain('MCP server "t" stopped again');
    const events = readFileSync(log, "utf8");
    expect(events.match(/^started/gm)?.length).toBe(2);
    // One initialize per start, saying who the client is.
    expect(events.match(/^initialize /gm)?.length).toBe(2);
    expect(events).toContain(
      'initialize {"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rienda","version":',
    );
  });

  test("a server that never answers initialize fails the run before any request, naming it and quoting its stderr", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__echo]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--never-initialize"], ", startup_timeout_ms: 1500") }),
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'MCP server "t" failed to start: timed out after 1500 ms (startup_timeout_ms) waiting for its answer to "initialize"',
    );
    expect(r.stderr).toMatch(/test server \d+ starting/);
    expect(s.server.requests.length).toBe(0);
    expect(sessionFiles(s.inst.home)).toEqual([]);
  });

  test("Ctrl-C while a server is still starting ends the run with 130 before any request, and the server with it", async () => {
    const log = join("/tmp", `mcp-runint-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [t__echo]",
      configExtra: mcpServers({
        t: nodeMcpServer(TEST_SERVER, ["--never-initialize", "--log", log], ", startup_timeout_ms: 60000"),
      }),
    });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    await waitFor(
      () => existsSync(log) && readFileSync(log, "utf8").includes("started"),
      20_000,
      "the server to start",
    );
    const pid = Number(/started (\d+)/.exec(readFileSync(log, "utf8"))![1]);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(s.server.requests.length).toBe(0);
    expect(sessionFiles(s.inst.home)).toEqual([]);
    await waitFor(() => !processRunning(pid), 5000, "the server to end");
  });

  test("a server that writes garbage to stdout is reported with the first line", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__echo]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--garbage"], ", startup_timeout_ms: 1500") }),
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MCP server "t" failed to start');
    expect(r.stderr).toContain(
      'it wrote 2 lines to stdout that are not JSON-RPC, the first: "hello from a server that prints to stdout"',
    );
    expect(s.server.requests.length).toBe(0);
  });

  test("a command that does not exist, and a server that exits at once, fail before any request", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [a__x, b__*]",
      configExtra: mcpServers({
        a: "{ command: no-such-mcp-server }",
        b: "{ command: node, args: [-e, 'console.error(\"bad flag\"); process.exit(2)'] }",
      }),
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MCP server "a" failed to start: cannot start "no-such-mcp-server": no such command');
    expect(r.stderr).toContain('MCP server "b" failed to start: the server exited (exit code 2)');
    expect(r.stderr).toContain("bad flag");
    expect(s.server.requests.length).toBe(0);
  });

  test("naming an unknown server or a tool the server does not list fails before any request, listing what exists", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__nope]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER) }),
    });
    let r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "t__nope": MCP server "t" does not list it (its tools: t__echo, t__fail,');
    s.inst.agent("coder", "---\ndescription: d\nmodel: p/m\ntools: [files__*]\n---\nx\n");
    r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `unknown MCP server "files" in "files__*" (MCP servers in ${s.inst.riendaPath("config.yaml")}: t)`,
    );
    s.inst.agent("coder", "---\ndescription: d\nmodel: p/m\ntools: [files__read]\n---\nx\n");
    r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'unknown tool "files__read" (available: shell); "files" is not an MCP server: MCP servers in',
    );
    expect(s.server.requests.length).toBe(0);
  });

  test("only the servers the agent uses are started", async () => {
    const log = join("/tmp", `mcp-used-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [a__echo]",
      configExtra: mcpServers({ a: nodeMcpServer(TEST_SERVER), b: nodeMcpServer(TEST_SERVER, ["--log", log]) }),
    });
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(existsSync(log)).toBe(false);
  });

  test("the server's process group is ended when the run ends, and when it is interrupted", async () => {
    for (const interrupt of [false, true]) {
      const pidFile = join("/tmp", `mcp-child-${process.pid}-${Date.now()}.pid`);
      s = await scenario({
        agentFrontmatter: "tools: [t__slow]",
        configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--child", pidFile]) }),
      });
      s.server.script(interrupt ? { toolCalls: [{ name: "t__slow", arguments: {} }] } : { text: "ok" }, {
        text: "never",
      });
      const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 20_000, "child pid");
      const child = Number(readFileSync(pidFile, "utf8"));
      expect(processRunning(child)).toBe(true);
      if (interrupt) {
        await waitFor(() => run.stderr().includes("tool: t__slow"), 20_000, "tool call");
        run.kill("SIGTERM");
      }
      const r = await run.done;
      expect(r.code).toBe(interrupt ? 130 : 0);
      await waitFor(() => !processRunning(child), 5000, "the server's child to end");
      await s.dispose();
      s = undefined;
    }
  });

  test("env reaches the server, Rienda's own variables do not, and env values never appear in the session or output", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__env]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, [], ', env: { SECRET_TOKEN: "${MY_TOKEN}" }') }),
    });
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "t__env", arguments: { name: "SECRET_TOKEN" } },
          { id: "b", name: "t__env", arguments: { name: "OTHER_VAR" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], {
      env: { MY_TOKEN: "tok-12345-secret", OTHER_VAR: "visible" },
    });
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["SECRET_TOKEN=***", "OTHER_VAR=(unset)"]);
    for (const file of sessionFiles(s.inst.home)) expect(readFileSync(file, "utf8")).not.toContain("tok-12345-secret");
    expect(r.stdout + r.stderr).not.toContain("tok-12345-secret");
  });

  test("server-filesystem: list and read files of an allowed directory", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [fs__read_text_file, fs__list_directory]",
      configExtra: mcpServers({ fs: "PLACEHOLDER" }),
    });
    s.inst.file("notes/today.txt", "buy milk\n");
    s.inst.config(
      readFileSync(s.inst.riendaPath("config.yaml"), "utf8").replace(
        "PLACEHOLDER",
        nodeMcpServer(FILESYSTEM, [s.inst.workspace]),
      ),
    );
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "fs__list_directory", arguments: { path: join(s.inst.workspace, "notes") } },
          { id: "b", name: "fs__read_text_file", arguments: { path: join(s.inst.workspace, "notes/today.txt") } },
          { id: "c", name: "fs__read_text_file", arguments: { path: "/etc/passwd" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results[0]).toContain("[FILE] today.txt");
    expect(results[1]).toBe("buy milk\n");
    expect(results[2]).toContain("Access denied");
  });
});
