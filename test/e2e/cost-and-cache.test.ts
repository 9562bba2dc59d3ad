/**
 * Prompt caching and cost through the binary: Anthropic requests carry
 * cache breakpoints (none with `cache: false`); with prices in config each
 * message_end and run_end carry the cost, plain output prints it on stderr,
 * the session file keeps it, and `rienda sessions` shows tokens (cache
 * reads and writes included) and cost.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { scenario, type Scenario, jsonEvents } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const PRICED = "        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 }";
const TWO_TURNS = [
  {
    text: "Looking.",
    toolCalls: [{ id: "c1", name: "missing-tool", arguments: {} }],
    usage: { input: 1000, cacheWrite: 2000, cacheRead: 0, output: 100 },
  },
  { text: "Done.", usage: { input: 200, cacheRead: 2000, cacheWrite: 300, output: 50 } },
];

describe("cost", () => {
  test("--json: each message_end and run_end carry the cost in dollars, from usage and the configured prices", async () => {
    s = await scenario({ protocol: "anthropic", modelExtra: PRICED });
    s.server.script(...TWO_TURNS);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    const ends = events.filter((e) => e.type === "message_end");
    // (1000 * 3 + 2000 * 3.75 + 100 * 15) / 1e6 and (200 * 3 + 2000 * 0.3 + 300 * 3.75 + 50 * 15) / 1e6
    expect(ends.map((e) => e.cost)).toEqual([0.012, 0.003075]);
    expect(ends[1]?.usage).toEqual({
      inputTokens: 2500,
      outputTokens: 50,
      cacheReadTokens: 2000,
      cacheWriteTokens: 300,
    });
    const runEnd = events.at(-1);
    expect(runEnd).toMatchObject({ type: "run_end", reason: "end_turn", cost: 0.015075 });
    expect(runEnd?.usage).toEqual({
      inputTokens: 5500,
      outputTokens: 150,
      cacheReadTokens: 2000,
      cacheWriteTokens: 2300,
    });
  });

  test("plain output prints the run's cost on stderr at the end; rienda sessions shows tokens and cost", async () => {
    s = await scenario({ protocol: "anthropic", modelExtra: PRICED });
    s.server.script(...TWO_TURNS);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Looking.\nDone.\n");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("cost: $0.015 (5,500 tokens in, 2,000 of them from cache; 150 out)");
    const listed = JSON.parse((await s.inst.run(["sessions", "--json"])).stdout) as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({
      usage: { inputTokens: 5500, outputTokens: 150, cacheReadTokens: 2000, cacheWriteTokens: 2300 },
      cost: 0.015075,
    });
    const table = (await s.inst.run(["sessions"])).stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.split(/ {2,}/));
    expect(table[0]).toEqual(["ID", "UPDATED", "AGENT", "MODEL", "MESSAGES", "TOKENS", "COST", "TITLE"]);
    expect(table[1]?.slice(4, 7)).toEqual(["4", "5500 in, 150 out", "$0.015"]);
  });

  test("without prices there is no cost anywhere", async () => {
    s = await scenario();
    s.server.script({ text: "hi" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "message_end")).not.toHaveProperty("cost");
    expect(events.at(-1)).not.toHaveProperty("cost");
    const plain = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(plain.stderr).not.toContain("cost:");
  });
});

describe("prompt caching on the wire", () => {
  test("Anthropic: breakpoints on the tools, the system prompt and the newest user messages; none with cache: false", async () => {
    s = await scenario({ protocol: "anthropic", agentFrontmatter: "tools: [shell]" });
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "ok" });
    expect((await s.inst.run(["run", "-a", "coder", "-p", "go", "-y"])).code).toBe(0);
    const second = s.server.requests[1]?.body as {
      system: unknown;
      tools: Array<Record<string, unknown>>;
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    };
    expect(second.system).toEqual([
      { type: "text", text: expect.stringContaining("You are a test agent."), cache_control: { type: "ephemeral" } },
    ]);
    expect(second.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    const userMarks = second.messages.filter((m) => m.role === "user").map((m) => m.content.at(-1)?.cache_control);
    expect(userMarks).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
    expect(JSON.stringify(second).split('"cache_control"').length - 1).toBe(4);
    await s.dispose();

    s = await scenario({
      protocol: "anthropic",
      agentFrontmatter: "tools: [shell]",
      modelExtra: "        cache: false",
    });
    s.server.script({ text: "ok" });
    expect((await s.inst.run(["run", "-a", "coder", "-p", "go"])).code).toBe(0);
    expect(JSON.stringify(s.server.requests[0]?.body)).not.toContain("cache_control");
  });
});
