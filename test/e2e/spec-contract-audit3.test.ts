/**
 * Third audit of contract.md, black box: what an acceptance test written
 * from the page alone, or a shell script relying on every byte, would try
 * that the first two audits (spec-contract-audit*.test.ts,
 * contract-literal.test.ts) did not: a ~/.rienda written for the Go Rienda
 * with the values Go could not tell from absent, and the like.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type Scenario, scenario, toolResultsOf } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("a Go-era config.yaml (contract: a ~/.rienda of the Go Rienda works unchanged)", () => {
  test('protocol: "" beside a preset, preset: "" beside a protocol and thinking_level: "" load as if left out', async () => {
    s = await scenario();
    const url = s.server.url;
    s.inst.config(
      [
        "providers:",
        "  p:",
        "    protocol: openai_chat_completions",
        '    preset: ""',
        `    base_url: ${url}/v1`,
        "    models:",
        '      m: { id: wire-model, thinking_level: "" }',
        "  q:",
        "    preset: anthropic",
        '    protocol: ""',
        `    base_url: ${url}`,
        "    models:",
        "      big: {}",
        "",
      ].join("\n"),
    );
    s.server.script({ text: "from chat" }, { text: "from anthropic" });
    const chat = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(chat.stderr).not.toContain("rienda:");
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe("from chat\n");
    const anthropic = await s.inst.run(["run", "-a", "coder", "-m", "q/big", "-p", "x"]);
    expect(anthropic.code).toBe(0);
    expect(anthropic.stdout).toBe("from anthropic\n");
    const [first, second] = s.server.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    expect(first!.body).not.toHaveProperty("reasoning_effort");
    expect(second!.path).toBe("/v1/messages");
    expect(second!.headers["anthropic-version"]).toBe("2023-06-01");
  });

  test("numbers written as yaml.v3 read them (32_000, 0b…) reach the wire, ctx.config and ctx.agent.config as those numbers", async () => {
    s = await scenario({
      protocol: "anthropic",
      modelExtra: "        max_tokens: 32_000\n        context_window: 200_000",
      configExtra: "compaction: { reserve_tokens: 16_384 }\nconfig:\n  settings: { max_bytes: 1_000_000, flags: 0b101, label: '1_000' }",
      agentFrontmatter: "tools: [settings]\nconfig:\n  settings: { max_lines: 2_000 }",
    });
    s.inst.tool("settings", 'module.exports = { description: "shows its settings", parameters: { type: "object" }, execute(ctx) { return JSON.stringify([ctx.config.config.settings, ctx.agent.config.settings]); } };');
    s.server.script({ toolCalls: [{ name: "settings", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect((s.server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(32000);
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual([{ max_bytes: 1000000, flags: 5, label: "1_000" }, { max_lines: 2000 }]);
  });

  test("an extension named under config: with nothing after it, in config.yaml or the agent, loads with no settings", async () => {
    s = await scenario({ agentFrontmatter: "tools: [settings]\nconfig:\n  settings:", configExtra: "config:\n  settings:\n  other: { a: 1 }" });
    s.inst.tool(
      "settings",
      'module.exports = { description: "shows its settings", parameters: { type: "object" }, execute(ctx) { return JSON.stringify([ctx.agent.config, ctx.config.config]); } };',
    );
    s.server.script({ toolCalls: [{ name: "settings", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual([{ settings: {} }, { settings: null, other: { a: 1 } }]);
  });
});

describe("-s with -a, without -m (contract §4: switch agent from there on)", () => {
  test("the run goes on with the new agent and that agent's own model, both recorded, and a later -s keeps them", async () => {
    s = await scenario({ modelExtra: "      big:\n        id: big-wire" });
    s.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/big\n---\nYou review code.\n");
    s.server.script({ text: "one" }, { text: "two" }, { text: "three" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const switched = await s.inst.run(["run", "-s", id, "-a", "reviewer", "-p", "y"]);
    expect(switched.code).toBe(0);
    expect((s.server.requests[1]!.body as { model: string }).model).toBe("big-wire");
    const entries = readEntries(sessionFile(s.inst.home, id));
    expect(entries.find((e) => e.kind === "agent")).toMatchObject({ agent: "reviewer", previousAgent: "coder" });
    expect(entries.find((e) => e.kind === "model")).toMatchObject({ model: "p/big", previousModel: "p/m" });
    await s.inst.run(["run", "-s", id, "-p", "z"]);
    expect((s.server.requests[2]!.body as { model: string }).model).toBe("big-wire");
  });
});
