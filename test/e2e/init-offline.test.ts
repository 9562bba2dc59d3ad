/**
 * `rienda init` on a machine with no network (a user and network namespace
 * with only loopback, `unshare -rn`, where the machine allows one): the
 * setup it writes works at once, offline, and what it prints about local
 * model servers is enough to point the starter agent at one.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { BINARY, Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";

const CAN_ISOLATE = spawnSync("unshare", ["-rn", "true"]).status === 0;
/** No provider key and no config override may leak in from the machine running the tests. */
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined };

let inst: Instance;
beforeEach(() => {
  inst = new Instance();
  rmSync(inst.riendaPath(), { recursive: true, force: true });
});
afterEach(() => inst.dispose());

/** Runs the binary with only loopback for a network where the machine allows it. */
function offline(args: string[]) {
  const argv = CAN_ISOLATE ? ["unshare", "-rn", BINARY, ...args] : [BINARY, ...args];
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: inst.workspace,
    env: inst.env(CLEAN_ENV),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("rienda init with no network", () => {
  test.skipIf(!CAN_ISOLATE)("the tests run where the network is unreachable: only loopback", () => {
    const r = spawnSync("unshare", ["-rn", "cat", "/proc/net/dev"], { encoding: "utf8" });
    expect(
      r.stdout
        .split("\n")
        .slice(2)
        .map((line) => line.split(":")[0]!.trim())
        .filter(Boolean),
    ).toEqual(["lo"]);
  });

  test("gives a working offline setup: the starter agent answers from its replay script, doctor finds no problem", () => {
    const init = offline(["init"]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const run = offline(["run", "-a", "starter", "-p", "hi"]);
    expect(run.stderr).not.toContain("rienda:");
    expect(run.stdout).toStartWith("Hello from Rienda!");
    expect(run.code).toBe(0);
    const doctor = offline(["doctor"]);
    expect(doctor.stdout).not.toContain("problem:");
    expect(doctor.stdout).toContain("healthy");
    expect(doctor.code).toBe(0);
  });

  test("explains how to point the agent at a model server on this machine or the local network", () => {
    const init = offline(["init"]);
    const agent = inst.riendaPath("agents/starter.md");
    const config = inst.riendaPath("config.yaml");
    expect(init.stdout).toContain(
      `Then give the agent a real model: in ${agent}, set "model:"\n` +
        `to a model of ${config}, such as:\n` +
        "  ollama/qwen3     Ollama on this machine (ollama serve; ollama pull qwen3:8b)\n" +
        "  local/default    any OpenAI-compatible server on this machine or your network\n" +
        '                   (llama.cpp, LM Studio, vLLM): set its address as base_url of "local"\n' +
        "  openai/gpt-4o    with OPENAI_API_KEY set; anthropic/sonnet with ANTHROPIC_API_KEY\n" +
        "The first two need no internet.",
    );
    const yaml = readFileSync(config, "utf8");
    expect(yaml).toContain("  local:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:8080/v1\n");
    expect(yaml).toContain("llama.cpp (`llama-server -m model.gguf\n  # --port 8080 --jinja`)");
  });

  describe("following that explanation", () => {
    let server: ProviderServer;
    beforeEach(async () => (server = await startProviderServer()));
    afterEach(() => server.close());

    test("the starter agent talks to the local server, with no key", async () => {
      expect(offline(["init"]).code).toBe(0);
      // What a user does: the server's address in config.yaml, the model in the agent.
      const config = inst.riendaPath("config.yaml");
      writeFileSync(
        config,
        readFileSync(config, "utf8").replace("base_url: http://127.0.0.1:8080/v1", `base_url: ${server.url}/v1`),
      );
      const agent = inst.riendaPath("agents/starter.md");
      writeFileSync(agent, readFileSync(agent, "utf8").replace("model: replay/starter", "model: local/default"));
      server.script({ text: "Answered by the model server next door." });
      // The server listens in this test's network namespace, so this run is not isolated.
      const r = await inst.run(["run", "-a", "starter", "-p", "hi"], { env: CLEAN_ENV });
      expect(r.stderr).not.toContain("rienda:");
      expect(r.stdout).toBe("Answered by the model server next door.\n");
      expect(r.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.path).toBe("/v1/chat/completions");
      expect((server.requests[0]!.body as { model: string }).model).toBe("default");
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
    });
  });
});
