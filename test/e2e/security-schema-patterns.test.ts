/**
 * Issue 39, item 2: a JSON Schema `pattern` that backtracks for ever
 * (`^(a|a?)+$`) and a model that sends strings made to trigger it
 * (`aaa…a!`) must not hold the process: `--timeout` and signals keep their
 * promise, and the call gets an error result saying the argument does not
 * match. The pattern comes from a tool's `parameters`, an MCP server's
 * input schema and a `--schema` answer. On a binary that matches with
 * JavaScript's backtracking engine each of these runs never ends: the
 * safety net (SIGKILL after 30 seconds) fails the test.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { mcpServers, scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";

const HOSTILE = "^(a|a?)+$";
/** Backtracking tries some 2^60 ways before it gives up on this one. */
const TRIGGER = `${"a".repeat(60)}!`;
const SAFETY_NET_MS = 30_000;

const hostileTool = `module.exports = {
  description: "Takes a name.",
  parameters: { type: "object", properties: { name: { type: "string", pattern: ${JSON.stringify(HOSTILE)} } }, required: ["name"] },
  execute(ctx, args) { return "ran with " + args.name; },
};`;

/** A dozen calls with the trigger, as the issue's attacker sent. */
const dozenCalls = Array.from({ length: 12 }, (_, i) => ({
  id: `c${i + 1}`,
  name: "named",
  arguments: { name: TRIGGER },
}));

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("hostile schema patterns (issue 39, item 2)", () => {
  test("a tool's pattern: --timeout still ends the run, and each call gets 'must match pattern'", async () => {
    s = await scenario({ agentFrontmatter: "tools: [named]" });
    s.inst.tool("named", hostileTool);
    s.server.script({ toolCalls: dozenCalls }, { text: "never", hang: true });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "3s"], { killAfterMs: SAFETY_NET_MS });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("rienda: the run reached its time limit of 3s (--timeout 3s)");
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results.length).toBe(12);
    for (const result of results) expect(result).toContain(`name: must match pattern "${HOSTILE}"`);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`a tool's pattern: ${signal} right after the calls arrive interrupts the run (exit 130)`, async () => {
      s = await scenario({ agentFrontmatter: "tools: [shell, named]" });
      s.inst.tool("named", hostileTool);
      // The shell call runs first and leaves a mark: the hostile calls are checked right after it.
      s.server.script(
        { toolCalls: [{ id: "mark", name: "shell", arguments: { command: "touch marked" } }, ...dozenCalls] },
        { text: "never", hang: true },
      );
      const run = s.inst.start(["run", "-a", "coder", "-p", "go"], { killAfterMs: SAFETY_NET_MS });
      await waitFor(() => existsSync(join(s!.inst.workspace, "marked")), 20_000, "the shell call");
      run.kill(signal);
      const r = await run.done;
      expect(r.signal).toBeNull();
      expect(r.code).toBe(130);
      expect(r.stderr).toContain("rienda: the run was interrupted");
    });
  }

  test("an MCP server's input schema: --timeout still ends the run, each call gets 'must match pattern'", async () => {
    s = await scenario({ agentFrontmatter: "tools: [evil__*]" });
    const server = s.inst.file(
      "evil-server.mjs",
      `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
const schema = { type: "object", properties: { name: { type: "string", pattern: ${JSON.stringify(HOSTILE)} } } };
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "evil", version: "1" } } });
  else if (m.method === "tools/list") send({ id: m.id, result: { tools: [
    { name: "take", description: "Takes a name.", inputSchema: schema },
  ] } });
  else if (m.method === "tools/call") send({ id: m.id, result: { content: [{ type: "text", text: "taken" }] } });
  else if (m.id !== undefined) send({ id: m.id, result: {} });
});
`,
    );
    s.inst.config(
      `${readFileSync(s.inst.riendaPath("config.yaml"), "utf8")}${mcpServers({ evil: `{ command: node, args: [${JSON.stringify(server)}] }` })}\n`,
    );
    s.server.script(
      { toolCalls: dozenCalls.map((call) => ({ ...call, name: "evil__take" })) },
      { text: "never", hang: true },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--timeout", "3s"], { killAfterMs: SAFETY_NET_MS });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(3);
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results.length).toBe(12);
    for (const result of results) expect(result).toContain(`name: must match pattern "${HOSTILE}"`);
  });

  test("a --schema answer: refused as not matching, asked once more, then the run ends (exit 4)", async () => {
    s = await scenario();
    const schema = JSON.stringify({
      type: "object",
      properties: { name: { type: "string", pattern: HOSTILE } },
      required: ["name"],
    });
    s.server.script({ text: JSON.stringify({ name: TRIGGER }) }, { text: JSON.stringify({ name: TRIGGER }) });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--schema", schema, "--timeout", "2s"], {
      killAfterMs: SAFETY_NET_MS,
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`rienda: the answer does not match the schema: /name: must match pattern "${HOSTILE}"`);
  });

  test("a pattern RE2 cannot run (lookahead) is refused with a message, never run by the backtracking engine", async () => {
    s = await scenario();
    const schema = JSON.stringify({ type: "object", properties: { name: { type: "string", pattern: "^(?!x)a+$" } } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--schema", schema]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rienda: --schema: is not a usable JSON Schema: pattern "^(?!x)a+$" cannot be used');
    expect(r.stderr).toContain("no lookahead, no backreferences");
    expect(s.server.requests.length).toBe(0);
  });
});
