/**
 * `rienda init` with a model server running on this machine (docs/
 * getting-started.md, README "Five minutes"): every sentence of what it
 * writes is true of that setup as of the one without a server. The
 * servers are small fakes answering the model list on the usual ports,
 * inside a network namespace of their own (`unshare -rn`), so the
 * machine's own ports are never touched.
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { BINARY, Instance } from "../support/instance.ts";

const CAN_ISOLATE = spawnSync("unshare", ["-rn", "true"]).status === 0;
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined };

let inst: Instance | undefined;
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

/** A Node server on `port` listing `models` as /v1/models does (llama.cpp's entries are owned_by llamacpp). */
function fakeServer(port: number, models: string[], ownedBy: string): string {
  const body = JSON.stringify({
    object: "list",
    data: models.map((id) => ({ id, object: "model", owned_by: ownedBy })),
  });
  const source = `require("http").createServer((q, a) => { a.writeHead(q.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" }); a.end(${JSON.stringify(body)}); }).listen(${port}, "127.0.0.1", () => console.log("up"));`;
  return `node -e '${source.replace(/'/g, "'\\''")}' & server=$!; for i in $(seq 1 100); do curl -sf http://127.0.0.1:${port}/v1/models >/dev/null && break; sleep 0.05; done`;
}

/** init, then the replay answer through -m, inside a namespace where only the fake server listens. */
function initWith(server: string): { stdout: string; config: string; agent: string; replay: string } {
  inst = new Instance();
  rmSync(inst.riendaPath(), { recursive: true, force: true });
  const script = [
    "ip link set lo up",
    server,
    `'${BINARY}' init`,
    `echo "init=$?"`,
    `'${BINARY}' run -a starter -m replay/starter -p hi`,
    'kill "$server"',
  ].join("\n");
  const r = spawnSync("unshare", ["-rn", "sh", "-c", script], {
    cwd: inst.workspace,
    env: inst.env(CLEAN_ENV),
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.stdout).toContain("init=0\n");
  return {
    stdout: r.stdout,
    config: readFileSync(inst.riendaPath("config.yaml"), "utf8"),
    agent: readFileSync(inst.riendaPath("agents/starter.md"), "utf8"),
    replay: r.stdout.slice(r.stdout.indexOf("init=0\n") + 7),
  };
}

/** What must hold whichever server was found. */
function expectTrueOfAFoundServer(found: ReturnType<typeof initWith>, modelRef: string): void {
  expect(found.agent).toContain(`\nmodel: ${modelRef}\n`);
  expect(found.agent).not.toContain("replay");
  // The replay provider is no longer the starter agent's: its comment says how to reach it.
  expect(found.config).not.toContain("The starter agent uses it, so");
  expect(found.config).toContain("  # `rienda run -a starter -m replay/starter -p hi`.\n  replay:\n");
  expect(found.config).toContain("the starter agent uses it.");
  // What the replay answer says is true of this run.
  expect(found.replay).toContain("this run used the offline replay provider, so no model was called.");
  expect(found.replay).not.toContain("the starter agent uses the offline replay provider");
  // The model the answer and README suggest is declared.
  expect(found.config).toMatch(/\n {6}qwen3:( #[^\n]*)?\n {8}id: qwen3:8b\n/);
}

test.skipIf(!CAN_ISOLATE)(
  "llama.cpp found on 8080: the agent, the config's comments and the replay answer say so",
  () => {
    const found = initWith(fakeServer(8080, ["qwen2.5-7b"], "llamacpp"));
    expect(found.stdout).toContain(
      "found llama.cpp at http://127.0.0.1:8080/v1, serving qwen2.5-7b: the starter agent uses local/qwen2.5-7b\n",
    );
    expectTrueOfAFoundServer(found, "local/qwen2.5-7b");
    // The comment names the alias the config declares, not one it does not.
    expect(found.config).not.toContain("local/default");
    expect(found.config).toContain("then use model: local/qwen2.5-7b in an agent.");
    expect(found.config).toContain('      qwen2.5-7b:\n        id: "qwen2.5-7b"\n');
  },
);

test.skipIf(!CAN_ISOLATE)(
  "Ollama found on 11434 serving another model: it is declared beside qwen3, which README names",
  () => {
    const found = initWith(fakeServer(11434, ["llama3.2:3b"], "library"));
    expect(found.stdout).toContain("the starter agent uses ollama/llama3.2-3b\n");
    expectTrueOfAFoundServer(found, "ollama/llama3.2-3b");
    expect(found.config).toContain(
      '      llama3.2-3b: # Found running by `rienda init`: Ollama, serving llama3.2:3b; the starter agent uses it.\n        id: "llama3.2:3b"\n',
    );
  },
);

test.skipIf(!CAN_ISOLATE)("Ollama serving qwen3:8b: the starter agent uses ollama/qwen3, declared once", () => {
  const found = initWith(fakeServer(11434, ["qwen3:8b"], "library"));
  expectTrueOfAFoundServer(found, "ollama/qwen3");
  expect(found.config.match(/id: qwen3:8b/g)).toHaveLength(1);
});

test.skipIf(!CAN_ISOLATE)("no server: the replay provider is the starter agent's, as its comment says", () => {
  const found = initWith("server=");
  expect(found.agent).toContain("\nmodel: replay/starter\n");
  expect(found.config).toContain("  # The starter agent uses it, so `rienda run -a starter -p hi` works now.\n");
  expect(found.config).toContain("then use model: local/default in an agent.");
  expect(found.replay).toContain("this run used the offline replay provider, so no model was called.");
});
