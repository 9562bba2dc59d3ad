/**
 * Issue 39, item 6: the model's `shell` commands do not inherit the
 * variables Rienda takes provider keys from (a `${NAME}` in a provider's
 * `api_key`, `headers`, `base_url`); config.yaml's `shell.hide_env` hides
 * more by pattern, `shell.pass_env` puts one back. A tool's
 * `ctx.system.exec` keeps inheriting everything (extensions are trusted).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";

const ENV = {
  PROVIDER_KEY: "sk-provider-SECRET-1111",
  ORG_TOKEN: "org-SECRET-2222",
  GH_TOKEN: "ghp-other-3333",
  PLAIN_SETTING: "plain-4444",
};

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A scenario whose provider takes its key and a header from the environment, plus `extra` top-level YAML. */
async function keyedScenario(extra = "", agentTools = "tools: [shell]"): Promise<Scenario> {
  const current = await scenario({
    agentFrontmatter: agentTools,
    providerExtra: '    headers: { X-Org: "Bearer ${ORG_TOKEN}" }',
  });
  const config = readFileSync(current.inst.riendaPath("config.yaml"), "utf8").replace(
    "api_key: test-key",
    'api_key: "${PROVIDER_KEY}"',
  );
  current.inst.config(config + extra);
  return current;
}

/** Runs one `env` through the shell tool and returns what the model read. */
async function shellEnv(current: Scenario): Promise<{ code: number | null; stderr: string; result: string }> {
  current.server.script({ toolCalls: [{ id: "e", name: "shell", arguments: { command: "env" } }] }, { text: "done" });
  const r = await current.inst.run(["run", "-a", "coder", "-p", "show me"], { env: ENV });
  const second = current.server.requests[1];
  return { code: r.code, stderr: r.stderr, result: second ? toolResultsOf(second).join("\n") : "" };
}

describe("the shell tool's environment (issue 39, item 6)", () => {
  test("by default, the variables of the providers' keys and headers are not inherited; others are", async () => {
    s = await keyedScenario();
    const { code, result } = await shellEnv(s);
    expect(code).toBe(0);
    expect(result).toContain("PLAIN_SETTING=plain-4444");
    expect(result).toContain("GH_TOKEN=ghp-other-3333");
    expect(result).not.toContain("PROVIDER_KEY");
    expect(result).not.toContain("ORG_TOKEN");
    expect(result).not.toContain("SECRET");
    // The provider still got both.
    expect(s.server.requests[0]!.headers.authorization).toBe("Bearer sk-provider-SECRET-1111");
    expect(s.server.requests[0]!.headers["x-org"]).toBe("Bearer org-SECRET-2222");
  });

  test("shell.hide_env hides more by pattern; shell.pass_env puts a variable back", async () => {
    s = await keyedScenario('shell:\n  hide_env: ["*_TOKEN", PLAIN_SETTING]\n  pass_env: [PROVIDER_KEY]\n');
    const { code, result } = await shellEnv(s);
    expect(code).toBe(0);
    expect(result).toContain("PROVIDER_KEY=sk-provider-SECRET-1111");
    expect(result).not.toContain("GH_TOKEN");
    expect(result).not.toContain("ORG_TOKEN");
    expect(result).not.toContain("PLAIN_SETTING");
    expect(result).toContain("HOME=");
  });

  test("a tool's ctx.system.exec keeps the whole environment, as documented", async () => {
    s = await keyedScenario("", "tools: [printenv]");
    s.inst.tool(
      "printenv",
      `module.exports = { description: "env", parameters: { type: "object" }, execute(ctx) { return ctx.system.exec("printenv PROVIDER_KEY").stdout; } };`,
    );
    s.server.script({ toolCalls: [{ id: "p", name: "printenv", arguments: {} }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: ENV });
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!).join("")).toContain("sk-provider-SECRET-1111");
  });

  test("a shell: block that is not lists of names is refused, naming the key", async () => {
    s = await keyedScenario('shell:\n  hide_env: "*_TOKEN"\n  pass_env: ["A B"]\n  keep: []\n');
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: ENV });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'shell.hide_env: must be a list of variable names or patterns, e.g. ["*_TOKEN", "AWS_SECRET_ACCESS_KEY"]',
    );
    expect(r.stderr).toContain(
      'shell.pass_env[0]: must be a variable name or a pattern of one with * (letters, digits, "_" and "*"), not "A B"',
    );
    expect(r.stderr).toContain("shell.keep: unknown key");
    expect(s.server.requests.length).toBe(0);
  });
});
