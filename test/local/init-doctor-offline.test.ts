/**
 * `rienda init` and `rienda doctor` with a real llama.cpp server, and the
 * whole path on a machine with no network but loopback (a user and
 * network namespace, `unshare -rn`, where the machine allows one): init
 * finds the server on its usual port and points the starter agent at it,
 * doctor names what the server serves, and a run talks to it; nothing
 * tries another host.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { BINARY, Instance } from "../support/instance.ts";
import {
  freePort,
  llamaArgs,
  llamaServerBinary,
  localConfig,
  puppetAgent,
  startLlamaServer,
  type LlamaServer,
} from "./support/llama-server.ts";

const CAN_ISOLATE = spawnSync("unshare", ["-rn", "true"]).status === 0;
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined };

let inst: Instance | undefined;
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

describe("rienda doctor and a local server", () => {
  let server: LlamaServer;
  beforeAll(async () => {
    server = await startLlamaServer();
  });
  afterAll(async () => {
    await server.kill();
  });

  test("up, serving the configured id: healthy, nothing to say about it", async () => {
    inst = new Instance();
    inst.config(localConfig(server.url));
    inst.agent("puppet", puppetAgent());
    const r = await inst.run(["doctor"]);
    expect(r.stdout).not.toContain("warning:");
    expect(r.code).toBe(0);
  });

  test("up, configured id not the one it serves: names the id it serves and the key", async () => {
    inst = new Instance();
    inst.config(localConfig(server.url).replace("id: puppet", "id: qwen3-8b"));
    inst.agent("puppet", puppetAgent());
    const r = await inst.run(["doctor", "--json"]);
    const report = JSON.parse(r.stdout) as { healthy: boolean; warnings: Array<Record<string, unknown>> };
    expect(report.healthy).toBe(true);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        key: "providers.local.models.puppet.id",
        message: `"qwen3-8b" is not the id llama.cpp at ${server.url}/v1 serves (puppet); it answers with that model anyway`,
      }),
    );
  });

  test("down: a warning naming the address, the agent that uses it and how to start it", async () => {
    inst = new Instance();
    const port = await freePort();
    inst.config(localConfig(`http://127.0.0.1:${port}`));
    inst.agent("puppet", puppetAgent());
    const r = await inst.run(["doctor"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `the model server at http://127.0.0.1:${port}/v1 does not answer (nothing listens there); used by agent "puppet"`,
    );
    expect(r.stdout).toContain(`Start the model server, or set providers.local.base_url to where it listens`);
  });
});

describe("no network but loopback: init finds llama.cpp on 8080, doctor and a run use it", () => {
  test.skipIf(!CAN_ISOLATE)("the whole path inside a network namespace", () => {
    inst = new Instance();
    rmSync(inst.riendaPath(), { recursive: true, force: true });
    const llama = [llamaServerBinary(), ...llamaArgs(8080)].map((part) => `'${part}'`).join(" ");
    // One shell in the namespace: loopback up, the server on its usual port, then the commands.
    const script = [
      "ip link set lo up",
      `${llama} >/dev/null 2>&1 & server=$!`,
      "for i in $(seq 1 100); do curl -sf http://127.0.0.1:8080/v1/models >/dev/null && break; sleep 0.1; done",
      `'${BINARY}' init; echo "init=$?"`,
      `'${BINARY}' doctor; echo "doctor=$?"`,
      // The starter's word-count is not the shell the puppet calls (llama.cpp's grammar would refuse it): no tools.
      `'${BINARY}' run -a starter --no-tools -p hi; echo "run=$?"`,
      'kill "$server"',
    ].join("\n");
    const r = spawnSync("unshare", ["-rn", "sh", "-c", script], {
      cwd: inst.workspace,
      env: inst.env(CLEAN_ENV),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stdout).toContain(
      "found llama.cpp at http://127.0.0.1:8080/v1, serving puppet: the starter agent uses local/puppet\n",
    );
    expect(r.stdout).toContain("init=0\n");
    expect(r.stdout).toContain("doctor=0\n");
    expect(r.stdout).not.toContain("problem:");
    expect(r.stderr).toMatch(/^session: [0-9a-z]{26}\n$/);
    expect(r.stdout).toContain("Hello from the puppet model.\nrun=0\n");
    expect(readFileSync(inst.riendaPath("agents/starter.md"), "utf8")).toContain("\nmodel: local/puppet\n");
    expect(readFileSync(inst.riendaPath("config.yaml"), "utf8")).toContain('      puppet:\n        id: "puppet"\n');
  });

  test.skipIf(!CAN_ISOLATE)(
    "init --replay keeps the replay script, and with no server init says nothing of one",
    () => {
      inst = new Instance();
      rmSync(inst.riendaPath(), { recursive: true, force: true });
      const r = spawnSync("unshare", ["-rn", BINARY, "init"], {
        cwd: inst.workspace,
        env: inst.env(CLEAN_ENV),
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect(r.stdout).not.toContain("found ");
      expect(readFileSync(inst.riendaPath("agents/starter.md"), "utf8")).toContain("\nmodel: replay/starter\n");
    },
  );
});
