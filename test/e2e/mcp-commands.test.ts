/**
 * MCP servers in `rienda tool list`, `rienda tool run` and `rienda doctor`,
 * and a Streamable HTTP server that wants a header.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { waitFor } from "../support/instance.ts";
import { scenario, toolNamesOf, toolResultsOf, type Scenario, mcpServers, nodeMcpServer } from "../support/scenario.ts";
import { processRunning } from "../support/processes.ts";

const ROOT = resolve(import.meta.dir, "../..");
const TEST_SERVER = join(ROOT, "test/fixtures/mcp/stdio-server.mjs");
const HTTP_SERVER = join(ROOT, "test/fixtures/mcp/http-server.mjs");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

let s: Scenario | undefined;
let http: ChildProcess | undefined;
afterEach(async () => {
  http?.kill("SIGKILL");
  http = undefined;
  await s?.dispose();
  s = undefined;
});

/** Starts the HTTP test server and resolves its MCP URL. */
async function startHttpServer(token: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn("node", [HTTP_SERVER], {
    env: { ...process.env, MCP_TEST_TOKEN: token, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  http = child;
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  await waitFor(() => /listening \d+/.test(out), 20_000, "the HTTP server");
  return `http://127.0.0.1:${/listening (\d+)/.exec(out)![1]}/mcp`;
}

describe("MCP in the tool commands", () => {
  test("tool list shows each server with its state, and its tools under it", async () => {
    s = await scenario({
      configExtra: mcpServers({
        t: nodeMcpServer(TEST_SERVER),
        broken: "{ command: node, args: [-e, 'console.error(\"no config\"); process.exit(1)'] }",
      }),
    });
    const r = await s.inst.run(["tool", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("shell (built-in)");
    expect(r.stdout).toContain(
      "MCP server t (stdio: node): started, 10 tools\n  t__echo\n      Echoes the text.\n  t__fail\n",
    );
    expect(r.stdout).toContain(
      'MCP server broken (stdio: node): failed to start: the server exited (exit code 1)\nstderr of "broken":\n  no config',
    );
  });

  test("MCP servers come from the user's config only: a workspace's own config or .mcp.json starts nothing", async () => {
    const log = join("/tmp", `mcp-workspace-${process.pid}-${Date.now()}.log`);
    s = await scenario();
    const evil = mcpServers({ w: nodeMcpServer(TEST_SERVER, ["--log", log]) });
    s.inst.file(".rienda/config.yaml", `${readFileSync(s.inst.riendaPath("config.yaml"), "utf8")}${evil}\n`);
    s.inst.file("config.yaml", `${readFileSync(s.inst.riendaPath("config.yaml"), "utf8")}${evil}\n`);
    s.inst.file(
      ".mcp.json",
      JSON.stringify({ mcpServers: { w: { command: "node", args: [TEST_SERVER, "--log", log] } } }),
    );
    const list = await s.inst.run(["tool", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain("MCP server");
    const r = await s.inst.run(["tool", "run", "w__echo", "--args", '{"text":"x"}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "w__echo"');
    expect(existsSync(log)).toBe(false);
  });

  test("tool run calls one MCP tool without a model; isError gives exit 1; an unknown one lists the server's tools", async () => {
    s = await scenario({
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER), everything: nodeMcpServer(EVERYTHING, ["stdio"]) }),
    });
    let r = await s.inst.run(["tool", "run", "t__echo", "--args", '{"text":"hello"}']);
    expect(r.stdout).toBe("echo: hello\n");
    expect(r.code).toBe(0);
    r = await s.inst.run(["tool", "run", "everything__get-sum", "--args", '{"a":1,"b":2}']);
    expect(r.stdout).toContain("3");
    expect(r.code).toBe(0);
    // A tool with an output schema: the structured content is checked against it, the text is the result.
    r = await s.inst.run(["tool", "run", "everything__get-structured-content", "--args", '{"location":"Chicago"}']);
    expect(r.stdout).toBe('{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}\n');
    expect(r.code).toBe(0);
    r = await s.inst.run(["tool", "run", "t__fail"]);
    expect(r.stdout).toBe("it failed on purpose\n");
    expect(r.code).toBe(1);
    r = await s.inst.run(["tool", "run", "t__echo", "--args", '{"text":1}']);
    expect(r.stdout).toBe('invalid arguments for tool "t__echo":\n- text: must be string\n');
    expect(r.code).toBe(1);
    r = await s.inst.run(["tool", "run", "t__nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "t__nope": MCP server "t" does not list it (its tools: t__echo, t__fail');
  });

  test("tool run: Ctrl-C cancels the call and exits 130", async () => {
    const log = join("/tmp", `mcp-toolrun-${process.pid}-${Date.now()}.log`);
    s = await scenario({ configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--log", log]) }) });
    const run = s.inst.start(["tool", "run", "t__slow"]);
    await waitFor(() => run.stderr().includes("progress 2/3"), 20_000, "progress");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe("");
    expect(readFileSync(log, "utf8")).toMatch(/slow (\d+)\n[\s\S]*cancelled \1\n/);
  });

  test("tool run: Ctrl-C while the server is still starting ends the command with 130, and the server with it", async () => {
    const log = join("/tmp", `mcp-startint-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      configExtra: mcpServers({
        t: nodeMcpServer(TEST_SERVER, ["--never-initialize", "--log", log], ", startup_timeout_ms: 60000"),
      }),
    });
    const run = s.inst.start(["tool", "run", "t__echo", "--args", '{"text":"x"}'], { killAfterMs: 30_000 });
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
    expect(r.stderr).toContain("interrupted");
    await waitFor(() => !processRunning(pid), 5000, "the server to end");
  });

  for (const [command, signal] of [
    [["tool", "list"], "SIGINT"],
    [["doctor"], "SIGTERM"],
  ] as const) {
    test(`${command.join(" ")}: ${signal} while a server starts ends the server's whole process group too`, async () => {
      const pidFile = join("/tmp", `mcp-listint-${process.pid}-${Date.now()}.pid`);
      s = await scenario({
        configExtra: mcpServers({
          t: nodeMcpServer(TEST_SERVER, ["--never-initialize", "--child", pidFile], ", startup_timeout_ms: 60000"),
        }),
      });
      const run = s.inst.start([...command], { killAfterMs: 30_000 });
      await waitFor(
        () => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "",
        20_000,
        "the server's child to start",
      );
      // The server's own child (same process group) does not end when the server's stdin closes.
      const child = Number(readFileSync(pidFile, "utf8"));
      try {
        run.kill(signal);
        const r = await run.done;
        // The default action of the signal, as before: the command dies of it.
        expect(r.signal).toBe(signal);
        await waitFor(() => !processRunning(child), 5000, "the server's child to end");
      } finally {
        if (processRunning(child)) process.kill(child, "SIGKILL");
      }
    });
  }

  test("a Streamable HTTP server gets the configured header; the token never shows", async () => {
    const url = await startHttpServer("s3cret-token-value");
    s = await scenario({
      agentFrontmatter: "tools: [web__echo, web__rejected]",
      configExtra: mcpServers({ web: `{ url: "${url}", headers: { Authorization: "Bearer \${WEB_TOKEN}" } }` }),
    });
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "web__echo", arguments: { text: "over http" } },
          { id: "b", name: "web__rejected", arguments: {} },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: { WEB_TOKEN: "s3cret-token-value" } });
    expect(r.stderr).not.toContain("s3cret");
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["http echo: over http", "0"]);
  });

  test("a Streamable HTTP server that refuses the credentials fails the run before any request; tool list says so", async () => {
    const url = await startHttpServer("right-token");
    s = await scenario({
      agentFrontmatter: "tools: [web__echo]",
      configExtra: mcpServers({
        web: `{ url: "${url}", headers: { Authorization: "Bearer wrong-token" }, startup_timeout_ms: 5000 }`,
      }),
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MCP server "web" failed to start:');
    expect(r.stderr).toContain("401");
    expect(r.stderr).not.toContain("wrong-token");
    expect(s.server.requests.length).toBe(0);
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stdout).toContain(`MCP server web (http: ${url}): failed to start:`);
  });

  test("a server quoting the bare token it refused (no Bearer before it) never gets it printed, in run, tool list and doctor", async () => {
    const url = await startHttpServer("right-token", { MCP_TEST_QUOTE_TOKEN: "1" });
    s = await scenario({
      agentFrontmatter: "tools: [web__echo]",
      configExtra: mcpServers({
        web: `{ url: "${url}", headers: { Authorization: "Bearer \${WEB_TOKEN}" }, startup_timeout_ms: 5000 }`,
      }),
    });
    const env = { WEB_TOKEN: "quoted-wrong-token" };
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MCP server "web" failed to start:');
    expect(r.stderr).toContain("token *** is not valid");
    expect(r.stderr).not.toContain("quoted-wrong-token");
    const list = await s.inst.run(["tool", "list"], { env });
    expect(list.stdout).toContain("MCP server web");
    expect(list.stdout + list.stderr).not.toContain("quoted-wrong-token");
    const doctor = await s.inst.run(["doctor"], { env });
    expect(doctor.stdout).toContain('MCP server "web"');
    expect(doctor.stdout + doctor.stderr).not.toContain("quoted-wrong-token");
  });

  test("what ${NAME} puts into a server's entry (a token in its URL) and secrets a server quotes in a tool's description or schema never show in tool list, doctor or a request", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__told]",
      configExtra: mcpServers({
        t: nodeMcpServer(TEST_SERVER, ["--more"], ', env: { SECRET_TOKEN: "${TOLD_TOKEN}" }'),
        web: '{ url: "http://me:${WEB_PASSWORD}@127.0.0.1:9/mcp?key=${WEB_KEY}&home=${HOME}&dir=${PWD}", startup_timeout_ms: 3000 }',
      }),
    });
    const env = {
      TOLD_TOKEN: "told-secret-42",
      WEB_PASSWORD: "pass-secret-43",
      WEB_KEY: "key-secret-44",
      PWD: s.inst.workspace,
    };
    const secrets = /told-secret-42|pass-secret-43|key-secret-44/;
    const list = await s.inst.run(["tool", "list"], { env });
    expect(list.stdout).toContain("  t__told\n      Knows the token ***.\n");
    // HOME and PWD are no secrets (hidden, every path under them would be ***).
    expect(list.stdout).toContain(
      `MCP server web (http: http://me:***@127.0.0.1:9/mcp?key=***&home=${s.inst.home}&dir=${s.inst.workspace}): failed to start:`,
    );
    expect(list.stdout + list.stderr).not.toMatch(secrets);
    const doctor = await s.inst.run(["doctor"], { env });
    expect(doctor.stdout).toContain('MCP server "web" (http: http://me:***@127.0.0.1:9/mcp?key=***');
    expect(doctor.stdout + doctor.stderr).not.toMatch(secrets);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"], { env });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(s.server.requests[0]!.body);
    expect(sent).toContain("Knows the token ***.");
    expect(sent).not.toMatch(secrets);
    expect(r.stdout + r.stderr).not.toMatch(secrets);
  });

  test("a server listing tools without a usable input schema starts; those tools are left out, each with a reason", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--bad-tools"]) }),
    });
    const list = await s.inst.run(["tool", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("MCP server t (stdio: node): started, 10 tools\n");
    expect(list.stdout).not.toContain("t__stringly");
    expect(list.stderr).toContain(
      'MCP server "t": tool "stringly" is left out: its input schema is not of type "object" (a tool\'s arguments are an object)\n',
    );
    expect(list.stderr).toContain(
      'MCP server "t": tool "schemaless" is left out: it has no input schema (inputSchema)\n',
    );
    s.server.script({ toolCalls: [{ id: "a", name: "t__echo", arguments: { text: "still here" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tool "stringly" is left out');
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["echo: still here"]);
  });

  test("tools whose names collide once cleaned (a.b, a_b) or cut to 64 characters: the first keeps the name, the other is left out with a notice", async () => {
    const log = join("/tmp", `mcp-collide-${process.pid}-${Date.now()}.log`);
    s = await scenario({
      agentFrontmatter: "tools: [t__*]",
      configExtra: mcpServers({ t: nodeMcpServer(TEST_SERVER, ["--collide", "--log", log]) }),
    });
    const long = `t__${"l".repeat(61)}`;
    expect(long).toHaveLength(64);
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stdout).toContain("  t__a_b\n      The dotted one.\n");
    expect(list.stdout).toContain(`  ${long}\n      Long one.\n`);
    expect(list.stdout).not.toContain("The underscored one.");
    expect(list.stdout).not.toContain("Long two.");
    expect(list.stderr).toContain('MCP server "t": tool "a_b" is left out: its name t__a_b is already used by "a.b"\n');
    expect(list.stderr).toContain(
      `MCP server "t": tool "${"l".repeat(70)}2" is left out: its name ${long} is already used by "${"l".repeat(70)}1"\n`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "t__a_b", arguments: {} },
          { id: "b", name: long, arguments: {} },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tool "a_b" is left out');
    const offered = toolNamesOf(s.server.requests[0]!)!;
    expect(offered.filter((n) => n === "t__a_b" || n === long)).toEqual(["t__a_b", long]);
    expect(offered.every((n) => n.length <= 64)).toBe(true);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["a.b ran", `${"l".repeat(70)}1 ran`]);
    expect(readFileSync(log, "utf8").match(/^call .*$/gm)).toEqual(["call a.b", `call ${"l".repeat(70)}1`]);
  });

  test("doctor starts every configured server and reports the ones that fail, with a fix; agents naming missing MCP tools are problems", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [t__echo, t__nope, slow__*, ghost__*]",
      configExtra: mcpServers({
        t: nodeMcpServer(TEST_SERVER),
        slow: nodeMcpServer(TEST_SERVER, ["--never-initialize"], ", startup_timeout_ms: 1000"),
        missing: "{ command: no-such-mcp-binary }",
      }),
    });
    const r = await s.inst.run(["doctor"]);
    expect(r.code).toBe(1);
    const config = s.inst.riendaPath("config.yaml");
    expect(r.stdout).toContain(
      `problem: ${config}: mcp_servers.slow: MCP server "slow" (stdio: node) failed to start: timed out after 1000 ms (startup_timeout_ms) waiting for its answer to "initialize"`,
    );
    expect(r.stdout).toContain("fix: raise startup_timeout_ms if the server is slow to start");
    expect(r.stdout).toContain(
      `problem: ${config}: mcp_servers.missing: MCP server "missing" (stdio: no-such-mcp-binary) failed to start: cannot start "no-such-mcp-binary": no such command`,
    );
    expect(r.stdout).toContain("fix: install the server, or correct command (and cwd)");
    expect(r.stdout).toContain('tools[1]: unknown tool "t__nope": MCP server "t" does not list it');
    expect(r.stdout).toContain(
      `tools[3]: unknown MCP server "ghost" in "ghost__*" (MCP servers in ${config}: t, slow, missing)`,
    );
    expect(r.stdout).not.toContain("tools[0]");
    expect(r.stdout).not.toContain("tools[2]");
  });
});
