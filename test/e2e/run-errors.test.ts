import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { Instance } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** No session file was written anywhere under ~/.rienda/sessions. */
function noSessions(sc: Scenario): boolean {
  const root = sc.inst.riendaPath("sessions");
  if (!existsSync(root)) return true;
  return readdirSync(root, { recursive: true }).every((f) => !String(f).endsWith(".jsonl"));
}

describe("rienda run refuses bad input before any request", () => {
  test("a missing config says how to create one", async () => {
    const bare = new Instance();
    try {
      const r = await bare.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("config.yaml");
      expect(r.stderr).toContain("rienda init");
      expect(r.stdout).toBe("");
    } finally {
      bare.dispose();
    }
  });

  test("a config with an unknown key names the file and the key", async () => {
    s = await scenario();
    s.inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${s.server.url}/v1\n    modles: {}\n`,
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(s.inst.riendaPath("config.yaml"));
    expect(r.stderr).toContain("modles");
    expect(s.server.requests).toHaveLength(0);
  });

  test("--config and RIENDA_CONFIG choose the config file, the flag first", async () => {
    s = await scenario();
    const good = s.inst.riendaPath("config.yaml");
    const bad = s.inst.write(`${s.inst.root}/bad.yaml`, "providers: {}\nnope: 1\n");
    s.server.script({ text: "via flag" });
    const r1 = await s.inst.run(["run", "-a", "coder", "-p", "x", "--config", good], { env: { RIENDA_CONFIG: bad } });
    expect(r1.stdout).toBe("via flag\n");
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: { RIENDA_CONFIG: bad } });
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain("bad.yaml");
  });

  test("an agent with an unknown frontmatter key fails naming the file", async () => {
    s = await scenario();
    const file = s.inst.agent("coder", "---\ndescription: x\nmodel: p/m\ncolour: red\n---\nbody\n");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith(`rienda: ${file}`);
    expect(r.stderr).toContain("colour");
    expect(s.server.requests).toHaveLength(0);
    expect(noSessions(s)).toBe(true);
  });

  test("an unknown agent lists the available ones", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "nobody", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nobody");
    expect(r.stderr).toContain("coder");
  });

  test("an unknown tool named by the agent fails before any request, listing what is available", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, ghost]" });
    s.inst.tool(
      "word-count",
      'module.exports = { description: "d", parameters: { type: "object" }, execute() { return "1"; } };',
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "ghost" (available: shell, word-count)');
    expect(s.server.requests).toHaveLength(0);
    expect(noSessions(s)).toBe(true);
  });

  test("a broken tool named by the agent fails before any request with the tool's problem", async () => {
    s = await scenario({ agentFrontmatter: "tools: [broken]" });
    s.inst.tool("broken", "module.exports = { description: 'd', parameters: { type: 'object' } };");
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tool "broken"');
    expect(r.stderr).toContain("execute");
    expect(s.server.requests).toHaveLength(0);
  });

  test("an unknown provider or model is refused", async () => {
    s = await scenario();
    const r1 = await s.inst.run(["run", "-a", "coder", "-p", "x", "-m", "nope/m"]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain('unknown provider "nope"');
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x", "-m", "p/nope"]);
    expect(r2.stderr).toContain('unknown model "nope" in provider "p"');
    expect(s.server.requests).toHaveLength(0);
  });

  test("a missing workdir is an error before any request", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "-C", "no-such-dir"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no-such-dir");
    expect(s.server.requests).toHaveLength(0);
  });

  test("a missing prompt and an unknown flag are usage errors", async () => {
    s = await scenario();
    const r1 = await s.inst.run(["run", "-a", "coder"]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain("-p");
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x", "--frobnicate"]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain("--frobnicate");
    expect(s.server.requests).toHaveLength(0);
  });

  test("a 4xx from the provider fails at once with its message and the status", async () => {
    s = await scenario();
    s.server.script({
      error: { status: 400, message: "model wire-model does not exist", type: "invalid_request_error" },
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("model wire-model does not exist");
    expect(r.stderr).toContain("400");
    expect(s.server.requests).toHaveLength(1);
    expect(r.stdout).toBe("");
  });

  test("an empty answer is retried, then fails the run", async () => {
    s = await scenario();
    for (let i = 0; i < 5; i++) s.server.script({ text: "" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("empty");
    expect(s.server.requests).toHaveLength(5);
  }, 30_000);
});
