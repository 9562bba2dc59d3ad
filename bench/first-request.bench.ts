// Time from process start to the first provider request, with 20 user tools
// installed: once for an agent that declares all 20 (each loaded and checked
// in a fresh context) and once for an agent that declares one. Also the
// peak RSS of a whole 10-turn run. Compiled binary against the scripted provider.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProviderServer } from "../test/support/provider-server.ts";
import { msToFirstRequest } from "./support/first-request.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const work = mkdtempSync(join(tmpdir(), "rienda-bench-first-"));
const home = join(work, "home");
const names = Array.from({ length: 20 }, (_, i) => `tool-${String(i + 1).padStart(2, "0")}`);
for (const name of names) {
  mkdirSync(join(home, ".rienda/tools", name), { recursive: true });
  writeFileSync(
    join(home, ".rienda/tools", name, "index.js"),
    `module.exports = { description: "Tool ${name}.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, execute(ctx, a) { return a.path; } };`,
  );
}
const server = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
writeFileSync(
  join(home, ".rienda/agents/all.md"),
  `---\ndescription: all tools\nmodel: p/m\ntools: [${names.join(", ")}]\n---\nBench.\n`,
);
writeFileSync(
  join(home, ".rienda/agents/one.md"),
  `---\ndescription: one tool\nmodel: p/m\ntools: [tool-01]\n---\nBench.\n`,
);
const env = { PATH: process.env.PATH ?? "", HOME: home };

const timeToFirstRequest = (agent: string) =>
  msToFirstRequest(server, { binary, env, cwd: work }, ["run", "-a", agent, "-p", "hi"]);

for (const agent of ["all", "one"]) {
  const samples: number[] = [];
  for (let i = 0; i < 25; i++) samples.push(await timeToFirstRequest(agent));
  report(
    `start to first request, 20 tools installed, agent declares ${agent === "all" ? "20" : "1"}`,
    samples.slice(3),
    "ms",
  );
}

// Continuing a 10,000-message session: start to the first provider request.
{
  const id = "01kbench0000000000000000000";
  const dir = join(home, ".rienda/sessions/bench-00000000");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lines = [
    JSON.stringify({
      kind: "header",
      version: 1,
      id,
      createdAt: new Date().toISOString(),
      agent: "one",
      model: "p/m",
      workdir: work,
    }),
  ];
  let parent: string | null = null;
  for (let i = 0; i < 10_000; i++) {
    const mid = `m${i}`;
    const role = i % 2 === 0 ? "user" : "assistant";
    lines.push(
      JSON.stringify({
        kind: "message",
        id: mid,
        parentId: parent,
        createdAt: new Date().toISOString(),
        role,
        blocks: [{ type: "text", text: `message ${i} `.repeat(50) }],
      }),
    );
    parent = mid;
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.join("\n") + "\n", { mode: 0o600 });
  const samples: number[] = [];
  for (let i = 0; i < 12; i++)
    samples.push(await msToFirstRequest(server, { binary, env, cwd: work }, ["run", "-s", id, "-p", "and now?"]));
  report("continue a 10,000-message session to first request", samples.slice(2), "ms");
}

// Peak RSS of a 10-turn run (9 tool calls, then the answer), via /usr/bin/time when present.
if (existsSync("/usr/bin/time")) {
  const rss: number[] = [];
  for (let i = 0; i < 8; i++) {
    server.reset();
    for (let t = 1; t < 10; t++)
      server.script({ toolCalls: [{ id: `c${t}`, name: "tool-01", arguments: { path: `p${t}` } }] });
    server.script({ text: "done" });
    const child = spawn("/usr/bin/time", ["-f", "%M", binary, "run", "-a", "one", "-p", "go"], {
      env,
      cwd: work,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    await new Promise((r) => child.on("close", r));
    rss.push(Number(stderr.trim().split("\n").pop()) / 1024);
  }
  report("peak RSS of a 10-turn run", rss, "MB");
} else {
  console.log("peak RSS of a 10-turn run: /usr/bin/time not installed, skipped");
}
await server.close();
