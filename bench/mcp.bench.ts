// MCP: the start of a run whose agent declares the 20 tools of one stdio MCP
// server, beside that server's own start (spawn -> initialize answered ->
// tools/list answered, by a bare client); and what MCP costs runs without
// it: `rienda --version` and a run with one JavaScript tool, measured
// interleaved with RIENDA_BASELINE_BINARY (a build from before MCP) when set.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProviderServer } from "../test/support/provider-server.ts";
import { msToFirstRequest } from "./support/first-request.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
const baseline = process.env.RIENDA_BASELINE_BINARY;
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const serverScript = join(root, "test/fixtures/mcp/stdio-server.mjs");
// Most MCP servers are Node programs; the test server runs under the `node` on PATH.
const node = "node";
// The test server lists 10 tools of its own; 10 generated ones make 20.
const serverArgs = [serverScript, "--tools", "10"];

const work = mkdtempSync(join(tmpdir(), "rienda-bench-mcp-"));
const home = join(work, "home");
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
const provider = await startProviderServer();
writeFileSync(
  join(home, ".rienda/config.yaml"),
  [
    "providers:",
    "  p:",
    "    protocol: openai_chat_completions",
    `    base_url: ${provider.url}/v1`,
    '    api_key: ""',
    "    models:",
    "      m: {}",
    "mcp_servers:",
    `  t: { command: ${node}, args: ${JSON.stringify(serverArgs)} }`,
    "",
  ].join("\n"),
);
// Runs without MCP get a home whose config.yaml has no mcp_servers (a baseline from before MCP would refuse the key).
const plainHome = join(work, "plain-home");
mkdirSync(join(plainHome, ".rienda/agents"), { recursive: true });
mkdirSync(join(plainHome, ".rienda/tools/trivial"), { recursive: true });
writeFileSync(
  join(plainHome, ".rienda/tools/trivial/index.js"),
  'module.exports = { description: "d", parameters: { type: "object" }, execute() { return "ok"; } };',
);
writeFileSync(
  join(plainHome, ".rienda/config.yaml"),
  [
    "providers:",
    "  p:",
    "    protocol: openai_chat_completions",
    `    base_url: ${provider.url}/v1`,
    '    api_key: ""',
    "    models:",
    "      m: {}",
    "",
  ].join("\n"),
);
writeFileSync(
  join(plainHome, ".rienda/agents/plain.md"),
  "---\ndescription: one JS tool\nmodel: p/m\ntools: [trivial]\n---\nBench.\n",
);
writeFileSync(
  join(home, ".rienda/agents/mcp.md"),
  "---\ndescription: MCP tools\nmodel: p/m\ntools: [t__*]\n---\nBench.\n",
);
const env = { PATH: process.env.PATH ?? "", HOME: home };
const plainEnv = { PATH: process.env.PATH ?? "", HOME: plainHome };

/**
 * ms from spawning the server to its answer to tools/list, as a client that
 * starts at once would see it. Same environment as Rienda gives a server
 * (Node starts about twice as slow with the bench's whole environment).
 */
function serverStart(): Promise<number> {
  return new Promise((resolveTime, reject) => {
    const start = performance.now();
    const child = spawn(node, serverArgs, { env, stdio: ["pipe", "pipe", "ignore"] });
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    let buffer = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      let at = buffer.indexOf("\n");
      while (at >= 0) {
        const message = JSON.parse(buffer.slice(0, at)) as { id?: number; result?: { tools?: unknown[] } };
        buffer = buffer.slice(at + 1);
        if (message.id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          const elapsed = performance.now() - start;
          if (message.result?.tools?.length !== 20) reject(new Error("expected 20 tools"));
          child.stdin.end();
          child.on("close", () => resolveTime(elapsed));
        }
        at = buffer.indexOf("\n");
      }
    });
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
  });
}

/** ms from spawning `rienda run -a agent` to the provider's first request. */
function firstRequest(bin: string, agent: string): Promise<number> {
  return msToFirstRequest(
    provider,
    { binary: bin, env: agent === "plain" ? plainEnv : env, cwd: work },
    ["run", "-a", agent, "-p", "hi"],
    20_000,
  );
}

function version(bin: string): number {
  const start = performance.now();
  const r = spawnSync(bin, ["--version"], { env: plainEnv, cwd: work });
  if (r.status !== 0) throw new Error("--version failed");
  return performance.now() - start;
}

const own: number[] = [];
const run: number[] = [];
for (let i = 0; i < 23; i++) {
  own.push(await serverStart());
  run.push(await firstRequest(binary, "mcp"));
}
report("MCP server's own start (20 tools listed)", own.slice(3), "ms");
report("start to first request, agent uses its 20 tools", run.slice(3), "ms");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `${"added by Rienda (difference of the medians)".padEnd(48)} ${(median(run.slice(3)) - median(own.slice(3))).toFixed(2)} ms`,
);

// Without MCP: this build and the baseline, interleaved so that load on the machine hits both alike.
const builds: [string, string][] = [
  ["this build", binary],
  ...(baseline ? [["baseline", baseline] as [string, string]] : []),
];
const versions = new Map(builds.map(([name]) => [name, [] as number[]]));
const plain = new Map(builds.map(([name]) => [name, [] as number[]]));
for (let i = 0; i < 33; i++) {
  for (const [name, bin] of builds) versions.get(name)!.push(version(bin));
}
for (let i = 0; i < 23; i++) {
  for (const [name, bin] of builds) plain.get(name)!.push(await firstRequest(bin, "plain"));
}
for (const [name] of builds) {
  report(`rienda --version (${name})`, versions.get(name)!.slice(3), "ms");
  report(`run without MCP to first request (${name})`, plain.get(name)!.slice(3), "ms");
}
await provider.close();
