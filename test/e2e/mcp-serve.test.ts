/**
 * `rienda mcp serve`, driven by the official SDK's client: over stdio (the
 * binary started by StdioClientTransport) and over Streamable HTTP.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
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

async function connectStdio(
  i: Instance,
  args: string[] = [],
  capabilities: Record<string, unknown> = {},
): Promise<Client> {
  const c = new Client({ name: "test-client", version: "1.0.0" }, { capabilities });
  const transport = new StdioClientTransport({
    command: BINARY,
    args: ["mcp", "serve", ...args],
    env: i.env(),
    cwd: i.workspace,
    stderr: "pipe",
  });
  await c.connect(transport);
  return c;
}

/** `rienda mcp serve --http` on a free port, once it says where; the token from the file it made (or from RIENDA_MCP_TOKEN). */
async function serveHttp(
  i: Instance,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ started: Started; url: string; token: string }> {
  const s = i.start(["mcp", "serve", "--http", "127.0.0.1:0", ...args], { env });
  started = s;
  await waitFor(() => /Authorization: Bearer <token>/.test(s.stderr()), 20_000, "the server");
  const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(s.stderr())![1]!;
  const token = env.RIENDA_MCP_TOKEN ?? readFileSync(join(i.home, ".rienda", "mcp-token"), "utf8").trim();
  return { started: s, url, token };
}

/** The SDK's HTTP client transport, sending `token`. */
function httpTransport(url: string | URL, token: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
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
    expect(greet.inputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
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
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logs.push(`${n.params.level} ${n.params.logger}: ${String(n.params.data)}`),
    );
    const progress: string[] = [];
    await client.callTool({ name: "greet", arguments: { name: "bo" } }, undefined, {
      onprogress: (p) => void progress.push(`${p.progress} ${p.message}`),
    });
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
    await client.connect(
      new StdioClientTransport({
        command: BINARY,
        args: ["mcp", "serve"],
        env: inst.env(),
        cwd: inst.workspace,
        stderr: "pipe",
      }),
    );
    expect(textOf(await client.callTool({ name: "ask", arguments: {} }))).toBe("approved");
    expect(asked).toEqual(["Delete it?\n\nthe file x"]);
  });

  test("calls at the same time each run in their own context and all answer; a tool that throws is an error result with its message", async () => {
    inst = setup();
    inst.tool(
      "nap",
      `module.exports = {
      description: "Sleeps, then says who it was.",
      parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      execute(ctx, args) { globalThis.mine = args.n; ctx.sleep(300); return "n=" + args.n + " saw " + globalThis.mine; },
    };`,
    );
    inst.tool(
      "boom",
      `module.exports = { description: "Throws.", parameters: { type: "object", properties: {} }, execute() { throw new Error("boom inside the tool"); } };`,
    );
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
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      20_000,
      "the command to start",
    );
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
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "me", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "pipe" } } },
    ];
    const r = await inst.run(["mcp", "serve", "--tools", "greet"], {
      stdin: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    });
    expect(r.code).toBe(0);
    const messages = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id?: number; method?: string; result?: { content?: { text: string }[] } });
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
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      20_000,
      "the command to start",
    );
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
    const { url, token } = await serveHttp(inst, ["--tools", "greet"]);
    expect(started!.stderr()).toContain("serving 1 tool (greet)");
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(httpTransport(url, token));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "web" } }))).toBe(
      `hello web in ${inst.workspace}`,
    );
    await client.close();
    client = undefined;
    const forged = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        origin: "http://evil.example",
        authorization: `Bearer ${token}`,
      },
      body: "{}",
    });
    expect(forged.status).toBe(403);
    started!.kill("SIGTERM");
    const r = await started!.done;
    expect(r.code).toBe(0);
  });

  test("a client that ends its session (DELETE) mid-call: the call's worker and processes end; the server goes on", async () => {
    inst = setup();
    const { url, token } = await serveHttp(inst, ["--tools", "sleeper,greet"]);
    client = new Client({ name: "http-client", version: "1.0.0" });
    const transport = httpTransport(url, token);
    await client.connect(transport);
    const pidFile = join(inst.root, "sleep.pid");
    client.callTool({ name: "sleeper", arguments: { pidFile } }).catch(() => undefined);
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      20_000,
      "the command to start",
    );
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(processRunning(pid)).toBe(true);
    await transport.terminateSession();
    await waitFor(() => !processRunning(pid), 10_000, "the command to be killed");
    await client.close();
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(httpTransport(url, token));
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "after" } }))).toBe(
      `hello after in ${inst.workspace}`,
    );
  });

  test("--http refuses an address that is not loopback", async () => {
    inst = setup();
    const r = await inst.run(["mcp", "serve", "--http", "0.0.0.0:8931"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'mcp serve: --http listens on loopback addresses only (127.0.0.1, ::1, localhost), not "0.0.0.0"',
    );
  });
});

/** One POST to the MCP endpoint, its body read whole (an SSE body is fine: the server ends it with the answer). */
async function post(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: JSON.stringify(message),
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A session opened by hand (no GET stream, unlike the SDK's client): its id. */
async function openSession(url: string, token: string): Promise<string> {
  const init = await post(url, INITIALIZE, { authorization: `Bearer ${token}` });
  expect(init.status).toBe(200);
  const id = init.headers.get("mcp-session-id")!;
  const ready = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { authorization: `Bearer ${token}`, "mcp-session-id": id },
  );
  expect(ready.status).toBe(202);
  return id;
}

describe("rienda mcp serve --http: the token", () => {
  test("a request without the token, or with a wrong one, is refused (401 with a challenge) before anything else; with it, initialize, tools/list and tools/call work", async () => {
    inst = setup();
    // One session at most: refused requests must not have taken it.
    const { url, token } = await serveHttp(inst, ["--tools", "greet", "--max-sessions", "1"]);
    const none = await post(url, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="rienda mcp serve"');
    expect(none.headers.get("mcp-session-id")).toBeNull();
    expect(none.text).toContain("Unauthorized: send Authorization: Bearer <token>");
    const wrong = await post(url, INITIALIZE, {
      authorization: `Bearer ${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="rienda mcp serve", error="invalid_token"');
    expect(wrong.headers.get("mcp-session-id")).toBeNull();
    expect(
      (await post(url, INITIALIZE, { authorization: `Basic ${Buffer.from(`me:${token}`).toString("base64")}` })).status,
    ).toBe(401);
    expect((await post(url, INITIALIZE, { authorization: `Bearer ${token} ${token}` })).status).toBe(401);
    // Every path, not only /mcp: an unknown one is not even told apart.
    expect((await fetch(url.replace(/\/mcp$/, "/.well-known/oauth-protected-resource"))).status).toBe(401);
    // The SDK's client without the token cannot connect.
    const refused = new Client({ name: "no-token", version: "1.0.0" });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow();
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(httpTransport(url, token));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
    expect(textOf(await client.callTool({ name: "greet", arguments: { name: "ana" } }))).toBe(
      `hello ana in ${inst.workspace}`,
    );
    expect(started!.stderr()).not.toContain(token);
  });

  test("the token file is made with mode 0600 and 32 random bytes, named on stderr but never printed, and used again at the next start", async () => {
    inst = setup();
    const file = join(inst.home, ".rienda", "mcp-token");
    const first = await serveHttp(inst, ["--tools", "greet"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.started.stderr()).toContain(
      `rienda: clients send "Authorization: Bearer <token>", the token in ${file} (made now, readable only by you)`,
    );
    expect(first.started.stderr()).not.toContain(first.token);
    first.started.kill("SIGTERM");
    expect((await first.started.done).code).toBe(0);
    const second = await serveHttp(inst, ["--tools", "greet"]);
    expect(second.token).toBe(first.token);
    expect(second.started.stderr()).toContain(`the token in ${file} (readable only by you)`);
    second.started.kill("SIGTERM");
    await second.started.done;
    // --token-file: another file, made the same way.
    const other = join(inst.root, "tokens", "serve.token");
    const third = inst.start(["mcp", "serve", "--http", "127.0.0.1:0", "--tools", "greet", "--token-file", other]);
    started = third;
    await waitFor(() => third.stderr().includes(`the token in ${other} (made now`), 20_000, "the server");
    expect(statSync(other).mode & 0o777).toBe(0o600);
    expect(readFileSync(other, "utf8").trim()).not.toBe(first.token);
  });

  test("a token file others can read is refused, and so is a token too short to be one", async () => {
    inst = setup();
    const file = inst.write(inst.riendaPath("mcp-token"), "A".repeat(43) + "\n");
    chmodSync(file, 0o644);
    // Killed after a while should it serve instead of refusing.
    const open = await inst.run(["mcp", "serve", "--http", "127.0.0.1:0"], { killAfterMs: 20_000 });
    expect(open.code).toBe(1);
    expect(open.stderr).toContain(`rienda: mcp serve: the token file ${file} can be read by other users (mode 0644)`);
    const short = await inst.run(["mcp", "serve", "--http", "127.0.0.1:0"], {
      env: { RIENDA_MCP_TOKEN: "secret" },
      killAfterMs: 20_000,
    });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("rienda: mcp serve: RIENDA_MCP_TOKEN is too short: 6 characters, at least 32");
    const both = await inst.run(["mcp", "serve", "--http", "127.0.0.1:0", "--token-file", file], {
      env: { RIENDA_MCP_TOKEN: "b".repeat(40) },
      killAfterMs: 20_000,
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("RIENDA_MCP_TOKEN is set and --token-file is given");
    const stdio = await inst.run(["mcp", "serve", "--token-file", file], { killAfterMs: 20_000 });
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toContain("rienda: mcp serve: --token-file applies to --http only");
  });

  test("RIENDA_MCP_TOKEN gives the token: no file is made, and neither the tools nor the commands they run can read it", async () => {
    inst = setup();
    inst.tool(
      "peek",
      `module.exports = {
      description: "Looks for the token.",
      parameters: { type: "object", properties: {} },
      execute(ctx) { return String(ctx.env.get("RIENDA_MCP_TOKEN")) + " [" + ctx.system.exec("printf %s \\"$RIENDA_MCP_TOKEN\\"").stdout + "]"; },
    };`,
    );
    const token = "0123456789abcdef".repeat(4);
    const { url } = await serveHttp(inst, ["--tools", "peek"], { RIENDA_MCP_TOKEN: token });
    expect(started!.stderr()).toContain(
      'rienda: clients send "Authorization: Bearer <token>", the token of RIENDA_MCP_TOKEN',
    );
    expect(existsSync(join(inst.home, ".rienda", "mcp-token"))).toBe(false);
    client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(httpTransport(url, token));
    expect(textOf(await client.callTool({ name: "peek", arguments: {} }))).toBe("null []");
  });
});

describe("rienda mcp serve --http: sessions", () => {
  test("a session idle longer than --idle-timeout is closed: its call ends with its worker and processes, and its id then gets 404", async () => {
    inst = setup();
    const { url, token } = await serveHttp(inst, ["--tools", "sleeper,greet", "--idle-timeout", "2s"]);
    const id = await openSession(url, token);
    const pidFile = join(inst.root, "sleep.pid");
    const abort = new AbortController();
    const call = post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sleeper", arguments: { pidFile } } },
      { authorization: `Bearer ${token}`, "mcp-session-id": id },
      abort.signal,
    );
    call.catch(() => undefined);
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      20_000,
      "the command to start",
    );
    const pid = Number(readFileSync(pidFile, "utf8"));
    // The client goes away without ending its session (no DELETE): its connection drops, nothing more.
    abort.abort();
    await waitFor(() => !processRunning(pid), 20_000, "the idle session's command to be killed");
    expect(started!.stderr()).toContain(`rienda: closed MCP session ${id.slice(0, 8)}…, idle for 2s (--idle-timeout)`);
    const after = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { authorization: `Bearer ${token}`, "mcp-session-id": id },
    );
    expect(after.status).toBe(404);
    expect(after.text).toContain("Session not found");
  });

  test("a session in use is not idle: a call longer than --idle-timeout answers, and the session goes on", async () => {
    inst = setup();
    inst.tool(
      "nap",
      `module.exports = { description: "Naps.", parameters: { type: "object", properties: {} }, execute(ctx) { ctx.sleep(2500); return "rested"; } };`,
    );
    const { url, token } = await serveHttp(inst, ["--tools", "nap", "--idle-timeout", "1s"]);
    const id = await openSession(url, token);
    const auth = { authorization: `Bearer ${token}`, "mcp-session-id": id };
    const answer = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "nap", arguments: {} } },
      auth,
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("rested");
    expect((await post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, auth)).status).toBe(200);
  });

  test("--max-sessions: a session beyond the limit is refused (503, saying why) until one ends or an idle one is closed", async () => {
    inst = setup();
    const { url, token } = await serveHttp(inst, ["--tools", "greet", "--max-sessions", "2", "--idle-timeout", "1s"]);
    // The SDK's clients hold a stream open while connected: busy, never idle.
    const first = httpTransport(url, token);
    client = new Client({ name: "first", version: "1.0.0" });
    await client.connect(first);
    const second = new Client({ name: "second", version: "1.0.0" });
    await second.connect(httpTransport(url, token));
    try {
      const refused = await post(url, INITIALIZE, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(503);
      expect(refused.text).toContain(
        "Too many sessions: 2 are open, the limit of this server (rienda mcp serve --max-sessions)",
      );
      expect(refused.headers.get("mcp-session-id")).toBeNull();
      // The answer can arrive before the server's stderr line is read from its pipe.
      await waitFor(
        () => started!.stderr().includes("rienda: refused a new MCP session: 2 are open (--max-sessions)"),
        10_000,
        "the refusal on stderr",
      );
      // A client that ends its session makes room.
      await first.terminateSession();
      await client.close();
      client = undefined;
      const id = await openSession(url, token);
      // That one has no stream open: idle, it is closed after 1s and makes room again.
      let status = 503;
      const deadline = Date.now() + 20_000;
      while (status === 503 && Date.now() < deadline) {
        status = (await post(url, INITIALIZE, { authorization: `Bearer ${token}` })).status;
        if (status === 503) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
      expect(
        (
          await post(
            url,
            { jsonrpc: "2.0", id: 2, method: "ping" },
            { authorization: `Bearer ${token}`, "mcp-session-id": id },
          )
        ).status,
      ).toBe(404);
      // The connected client's session was never idle.
      expect(textOf(await second.callTool({ name: "greet", arguments: { name: "still" } }))).toBe(
        `hello still in ${inst.workspace}`,
      );
    } finally {
      await second.close().catch(() => undefined);
    }
  });
});

describe("Rienda as the MCP server of Rienda", () => {
  test("a run uses the tools another rienda serves, over stdio and over HTTP, with their log lines as tool output", async () => {
    const { scenario, toolResultsOf } = await import("../support/scenario.ts");
    inst = setup();
    const { url, token } = await serveHttp(inst, ["--tools", "greet"]);
    const s = await scenario({
      agentFrontmatter: "tools: [local__greet, web__greet]",
      configExtra: [
        "mcp_servers:",
        `  local: { command: ${JSON.stringify(BINARY)}, args: [mcp, serve, --tools, greet], env: { HOME: ${JSON.stringify(inst.home)} } }`,
        // As docs/mcp.md configures it: the token from the environment.
        `  web: { url: "${url}", headers: { Authorization: "Bearer \${RIENDA_MCP_TOKEN}" } }`,
      ].join("\n"),
    });
    try {
      s.server.script(
        {
          toolCalls: [
            { id: "a", name: "local__greet", arguments: { name: "stdio" } },
            { id: "b", name: "web__greet", arguments: { name: "http" } },
          ],
        },
        { text: "done" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: { RIENDA_MCP_TOKEN: token } });
      expect(r.code).toBe(0);
      expect(toolResultsOf(s.server.requests[1]!)).toEqual([
        `hello stdio in ${s.inst.workspace}`,
        `hello http in ${inst.workspace}`,
      ]);
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
    const { url, token } = await serveHttp(inst, ["--tools", "whoami"]);
    const s = await scenario({
      agentFrontmatter: "tools: [web__whoami]",
      configExtra: `mcp_servers:\n  web: { url: "${url}", headers: { Authorization: "Bearer ${token}" } }`,
    });
    try {
      s.server.script({ toolCalls: [{ id: "a", name: "web__whoami", arguments: {} }] }, { text: "done" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      const session = toolResultsOf(s.server.requests[1]!)[0]!;
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      const ping = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-06-18",
          authorization: `Bearer ${token}`,
        },
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
    const { url, token } = await serveHttp(inst, ["--tools", "greet"]);
    const port = new URL(url).port;
    const s = await scenario({
      agentFrontmatter: "tools: [web__greet]",
      configExtra: `mcp_servers:\n  web: { url: "${url}", headers: { Authorization: "Bearer ${token}" } }`,
    });
    try {
      s.server.script(
        { toolCalls: [{ id: "a", name: "web__greet", arguments: { name: "first" } }] },
        // Slow enough for the server to be restarted before the second call.
        {
          text: "once more",
          toolCalls: [{ id: "b", name: "web__greet", arguments: { name: "second" } }],
          chunkDelayMs: 600,
        },
        { text: "done" },
      );
      const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
      await waitFor(() => s.server.requests.length >= 2, 20_000, "the first call's result");
      started!.kill("SIGTERM");
      await started!.done;
      // The restarted server takes its token from the same file: the run's header stays right.
      started = inst.start(["mcp", "serve", "--http", `127.0.0.1:${port}`, "--tools", "greet"]);
      await waitFor(() => started!.stderr().includes(`at ${url}`), 20_000, "the server to be back");
      const r = await run.done;
      expect(r.code).toBe(0);
      expect(toolResultsOf(s.server.requests[2]!)).toEqual([
        `hello first in ${inst.workspace}`,
        `hello second in ${inst.workspace}`,
      ]);
    } finally {
      await s.dispose();
    }
  });
});
