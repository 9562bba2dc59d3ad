/**
 * `rienda mcp serve`, driven by the official SDK's client: over stdio (the
 * binary started by StdioClientTransport) and over Streamable HTTP.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { BINARY, Instance, waitFor, type Started } from "../support/instance.ts";
import { processRunning } from "../support/processes.ts";

let inst: Instance | undefined;
let client: Client | undefined;
let started: Started | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  started?.kill("SIGKILL");
  started = undefined;
  inst?.dispose();
  inst = undefined;
});

const GREET = `module.exports = {
  description: "Greets someone.",
  parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false },
  execute(ctx, args) {
    ctx.log("greeting " + args.name);
    // Work after the log line: the SDK's client drops a progress notification that arrives in the same read as the result.
    ctx.sleep(50);
    return "hello " + args.name + " in " + ctx.workdir;
  },
};`;

const FAIL = `module.exports = {
  description: "Fails.",
  parameters: { type: "object", properties: {} },
  execute() { return { text: "no luck", isError: true }; },
};`;

const COUNTER = `let calls = 0;
module.exports = {
  description: "Counts its calls in this context.",
  parameters: { type: "object", properties: {} },
  execute() { globalThis.seen = (globalThis.seen || 0) + 1; calls++; return String(calls) + "/" + globalThis.seen; },
};`;

const ASK = `module.exports = {
  description: "Asks before doing it.",
  parameters: { type: "object", properties: {} },
  execute(ctx) { return ctx.confirm({ title: "Delete it?", body: "the file x" }) ? "approved" : "refused"; },
};`;

const SLEEPER = `module.exports = {
  description: "Starts a long command.",
  parameters: { type: "object", properties: { pidFile: { type: "string" } }, required: ["pidFile"] },
  execute(ctx, args) { ctx.system.exec("sleep 60 & echo $! > " + args.pidFile + "; wait"); return "finished"; },
};`;

const WHOAMI = `module.exports = {
  description: "Answers with its session id.",
  parameters: { type: "object", properties: {} },
  execute(ctx) { return ctx.session.id; },
};`;

function setup(): Instance {
  const i = new Instance();
  i.tool("greet", GREET);
  i.tool("fail", FAIL);
  i.tool("counter", COUNTER);
  i.tool("ask", ASK);
  i.tool("sleeper", SLEEPER);
  return i;
}

async function connectStdio(i: Instance, args: string[] = [], capabilities: Record<string, unknown> = {}): Promise<Client> {
  const c = new Client({ name: "test-client", version: "1.0.0" }, { capabilities });
  const transport = new StdioClientTransport({ command: BINARY, args: ["mcp", "serve", ...args], env: i.env(), cwd: i.workspace, stderr: "pipe" });
  await c.connect(transport);
  return c;
}

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text: string }[] }).content ?? []).map((b) => b.text).join("");
}

describe("rienda mcp serve over stdio", () => {
  test("lists every tool but shell, with description and schema; calls run in the workspace; isError and bad arguments are tool errors", async () => {
    inst = setup();
    client = await connectStdio(inst);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["ask", "counter", "fail", "greet", "sleeper"]);
    const greet = tools.find((t) => t.name === "greet")!;
    expect(greet.description).toBe("Greets someone.");
    expect(greet.inputSchema).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false });
    const ok = await client.callTool({ name: "greet", arguments: { name: "ana" } });
    expect(textOf(ok)).toBe(`hello ana in ${inst.workspace}`);
    expect(ok.isError).toBe(false);
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(textOf(failed)).toBe("no luck");
    expect(failed.isError).toBe(true);
    const bad = await client.callTool({ name: "greet", arguments: { name: 3 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toBe('invalid arguments for tool "greet":\n- name: must be string');
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow('unknown tool "nope"');
  });

  test("each call runs in a fresh context", async () => {
    inst = setup();
    client = await connectStdio(inst);
    expect(textOf(await client.callTool({ name: "counter", arguments: {} }))).toBe("1/1");
    expect(textOf(await client.callTool({ name: "counter", arguments: {} }))).toBe("1/1");
  });

  test("ctx.log arrives as a log message and as progress when the client asks for progress", async () => {
    inst = setup();
    client = await connectStdio(inst);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level} ${n.params.logger}: ${String(n.params.data)}`));
    const progress: string[] = [];
    await client.callTool({ name: "greet", arguments: { name: "bo" } }, undefined, { onprogress: (p) => void progress.push(`${p.progress} ${p.message}`) });
    expect(logs).toEqual(["info greet: greeting bo"]);
    expect(progress).toEqual(["1 greeting bo"]);
  });

  test("--tools serves the named tools only, shell among them when named; an unknown name fails at start", async () => {
    inst = setup();
    client = await connectStdio(inst, ["--tools", "greet,shell"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet", "shell"]);
    const r = await inst.run(["mcp", "serve", "--tools", "greet,gret"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcp serve: unknown tool "gret"');
    expect(r.stdout).toBe("");
  });

  test("ctx.confirm asks the client by elicitation when it can, and is refused (false) when it cannot", async () => {
    inst = setup();
    client = await connectStdio(inst);
    expect(textOf(await client.callTool({ name: "ask", arguments: {} }))).toBe("refused");
    await client.close();
    const asked: string[] = [];
    client = new Client({ name: "asking-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { approve: true } };
    });
    await client.connect(new StdioClientTransport({ command: BINARY, args: ["mcp", "serve"], env: inst.env(), cwd: inst.workspace, stderr: "pipe" }));
    expect(textOf(await client.callTool({ name: "ask", arguments: {} }))).toBe("approved");
    expect(asked).toEqual(["Delete it?\n\nthe file x"]);
  });

  test("calls at the same time each run in their own context and all answer; a tool that throws is an error result with its message", async () => {
    inst = setup();
    inst.tool("nap", `module.exports = {
      description: "Sleeps, then says who it was.",
      parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      execute(ctx, args) { globalThis.mine = args.n; ctx.sleep(300); return "n=" + args.n + " saw " + globalThis.mine; },
    };`);
    inst.tool("boom", `module.exports = { description: "Throws.", parameters: { type: "object", properties: {} }, execute() { throw new Error("boom inside the tool"); } };`);
    client = await connectStdio(inst, ["--tools", "nap,boom"]);
    const answers = await Promise.all([1, 2, 3, 4].map((n) => client!.callTool({ name: "nap", arguments: { n } })));
    expect(answers.map(textOf)).toEqual(["n=1 saw 1", "n=2 saw 2", "n=3 saw 3", "n=4 saw 4"]);
    const thrown = await client.callTool({ name: "boom", arguments: {} });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toContain("boom inside the tool");
  });

  test("a cancelled call ends its worker and the processes it started; the server goes on", async () => {
    inst = setup();
    client = await connectStdio(inst);
    const pidFile = join(inst.root, "sleep.pid");
    const abort = new AbortController();
    const call = client.callTool({ name: "sleeper", arguments: { pidFile } }, undefined, { signal: abort.signal });
    call.catch(() => undefined);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000, "the command to start");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(processRunning(pid)).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => !processRunning(pid), 10_000, "the command to be killed");
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "after" } }))).toContain("hello after");
  });
});

describe("rienda mcp serve over stdio, by hand", () => {
  test("requests piped in with stdin closed right after still get their answers, then the server exits 0", async () => {
    inst = setup();
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "me", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "pipe" } } },
    ];
    const r = await inst.run(["mcp", "serve", "--tools", "greet"], { stdin: lines.map((l) => JSON.stringify(l)).join("\n") + "\n" });
    expect(r.code).toBe(0);
    const messages = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id?: number; method?: string; result?: { content?: { text: string }[] } });
    expect(messages.map((m) => m.method).filter(Boolean)).toEqual(["notifications/message"]);
    const answers = messages.filter((m) => m.id !== undefined);
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1]!.result!.content![0]!.text).toBe(`hello pipe in ${inst.workspace}`);
  });
});

describe("rienda mcp serve over stdio, a client that dies", () => {
  test("a client killed mid-call: the call's processes end and so does the server", async () => {
    inst = setup();
    const pidFile = join(inst.root, "sleep.pid");
    const serveFile = join(inst.root, "serve.pid");
    // The client starts the server, asks for a long call, and is killed without a word.
    const client = `
      const { spawn } = require("node:child_process");
      const { writeFileSync } = require("node:fs");
      const server = spawn(process.argv[1], ["mcp", "serve"], { stdio: ["pipe", "pipe", "ignore"] });
      writeFileSync(${JSON.stringify(serveFile)}, String(server.pid));
      const send = (m) => server.stdin.write(JSON.stringify(m) + "\\n");
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sleeper", arguments: { pidFile: ${JSON.stringify(pidFile)} } } });
      setInterval(() => {}, 1000);`;
    const dying = spawn("node", ["-e", client, BINARY], { cwd: inst.workspace, env: inst.env(), stdio: "ignore" });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000, "the command to start");
    const sleeper = Number(readFileSync(pidFile, "utf8"));
    const server = Number(readFileSync(serveFile, "utf8"));
    expect(processRunning(sleeper)).toBe(true);
    dying.kill("SIGKILL");
    await waitFor(() => !processRunning(sleeper), 10_000, "the call's command to end");
    await waitFor(() => !processRunning(server), 10_000, "the server to end");
  });
});

describe("rienda mcp serve --http", () => {
  test("serves Streamable HTTP on a loopback port to the SDK's client", async () => {
    inst = setup();
    started = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "greet"]);
    await waitFor(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(started!.stderr()), 20_000, "the server");
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(started.stderr())![1]!;
    expect(started.stderr()).toContain("serving 1 tool (greet)");
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "web" } }))).toBe(`hello web in ${inst.workspace}`);
    await client.close();
    client = undefined;
    const forged = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin: "http://evil.example" }, body: "{}" });
    expect(forged.status).toBe(403);
    started.kill("SIGTERM");
    const r = await started.done;
    expect(r.code).toBe(0);
  });

  test("a client that ends its session (DELETE) mid-call: the call's worker and processes end; the server goes on", async () => {
    inst = setup();
    started = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "sleeper,greet"]);
    await waitFor(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(started!.stderr()), 20_000, "the server");
    const url = new URL(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(started.stderr())![1]!);
    client = new Client({ name: "http-client", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
    const pidFile = join(inst.root, "sleep.pid");
    client.callTool({ name: "sleeper", arguments: { pidFile } }).catch(() => undefined);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000, "the command to start");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(processRunning(pid)).toBe(true);
    await transport.terminateSession();
    await waitFor(() => !processRunning(pid), 10_000, "the command to be killed");
    await client.close();
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "after" } }))).toBe(`hello after in ${inst.workspace}`);
  });

  test("--http refuses an address that is not loopback", async () => {
    inst = setup();
    const r = await inst.run(["mcp", "serve", "--http", "0.0.0.0:8931"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcp serve: --http listens on loopback addresses only (127.0.0.1, ::1, localhost), not "0.0.0.0"');
  });
});

describe("Rienda as the MCP server of Rienda", () => {
  test("a run uses the tools another rienda serves, over stdio and over HTTP, with their log lines as tool output", async () => {
    const { scenario, toolResultsOf } = await import("../support/scenario.ts");
    inst = setup();
    started = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "greet"]);
    await waitFor(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(started!.stderr()), 20_000, "the server");
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(started.stderr())![1]!;
    const s = await scenario({
      agentFrontmatter: "tools: [local__greet, web__greet]",
      configExtra: [
        "mcp_servers:",
        `  local: { command: ${JSON.stringify(BINARY)}, args: [mcp, serve, --tools, greet], env: { HOME: ${JSON.stringify(inst.home)} } }`,
        `  web: { url: "${url}" }`,
      ].join("\n"),
    });
    try {
      s.server.script({ toolCalls: [{ id: "a", name: "local__greet", arguments: { name: "stdio" } }, { id: "b", name: "web__greet", arguments: { name: "http" } }] }, { text: "done" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      expect(toolResultsOf(s.server.requests[1]!)).toEqual([`hello stdio in ${s.inst.workspace}`, `hello http in ${inst.workspace}`]);
      expect(r.stderr).toContain("[info] greet: greeting stdio");
      expect(r.stderr).toContain("[info] greet: greeting http");
      // The same line as progress is not shown twice.
      expect(r.stderr).not.toContain("progress 1 greeting");
    } finally {
      await s.dispose();
    }
  });
  test("a run that used an HTTP server ends its MCP session there (a DELETE), so a long-running server does not keep one per run", async () => {
    const { scenario, toolResultsOf } = await import("../support/scenario.ts");
    inst = setup();
    inst.tool("whoami", WHOAMI);
    started = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "whoami"]);
    await waitFor(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(started!.stderr()), 20_000, "the server");
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(started.stderr())![1]!;
    const s = await scenario({ agentFrontmatter: "tools: [web__whoami]", configExtra: `mcp_servers:\n  web: { url: "${url}" }` });
    try {
      s.server.script({ toolCalls: [{ id: "a", name: "web__whoami", arguments: {} }] }, { text: "done" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      const session = toolResultsOf(s.server.requests[1]!)[0]!;
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      const ping = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      await ping.body?.cancel();
      expect(ping.status).toBe(404);
    } finally {
      await s.dispose();
    }
  });
  test("an HTTP server that restarts during a run (its session forgotten, 404): the next call starts a new session and goes through", async () => {
    const { scenario, toolResultsOf } = await import("../support/scenario.ts");
    inst = setup();
    started = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "greet"]);
    await waitFor(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(started!.stderr()), 20_000, "the server");
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(started.stderr())![1]!;
    const port = new URL(url).port;
    const s = await scenario({ agentFrontmatter: "tools: [web__greet]", configExtra: `mcp_servers:\n  web: { url: "${url}" }` });
    try {
      s.server.script(
        { toolCalls: [{ id: "a", name: "web__greet", arguments: { name: "first" } }] },
        // Slow enough for the server to be restarted before the second call.
        { text: "once more", toolCalls: [{ id: "b", name: "web__greet", arguments: { name: "second" } }], chunkDelayMs: 600 },
        { text: "done" },
      );
      const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
      await waitFor(() => s.server.requests.length >= 2, 20_000, "the first call's result");
      started.kill("SIGTERM");
      await started.done;
      started = inst.start(["mcp", "serve", "--http", `127.0.0.1:${port}`, "--tools", "greet"]);
      await waitFor(() => started!.stderr().includes(`at ${url}`), 20_000, "the server to be back");
      const r = await run.done;
      expect(r.code).toBe(0);
      expect(toolResultsOf(s.server.requests[2]!)).toEqual([`hello first in ${inst.workspace}`, `hello second in ${inst.workspace}`]);
    } finally {
      await s.dispose();
    }
  });
});
