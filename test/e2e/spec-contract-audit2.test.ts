/**
 * Second audit of contract.md, black box: sentences of the page the first
 * audit (spec-contract-audit-*.test.ts, contract-literal.test.ts) left
 * unpinned, read the way a test writer who knows only the page would.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROTOCOLS, configFor, scenario, systemOf, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("loop guard (contract §5: 3 identical rounds, same calls and same results)", () => {
  test("calls that differ only in their ids (as a real model sends them) are the same calls: the third round stops the run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const call = { name: "shell", arguments: { command: "echo again" } };
    s.server.script({ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "never" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(s.server.requests).toHaveLength(3);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(/^rienda: .*same tool calls.*3 times/);
  });

  test("the same calls with changing results are not a loop: the run goes on to its answer", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const call = { name: "shell", arguments: { command: "echo x >> count; wc -l < count" } };
    s.server.script({ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(s.server.requests).toHaveLength(5);
  });
});

describe("the built-in shell's timeout_ms (contract §5: default 2 min, capped at 30 min)", () => {
  test("a timeout above the cap is capped, not refused: the command runs; a negative one or a fraction is an error result and nothing runs", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ name: "shell", arguments: { command: "echo capped", timeout_ms: 10 * 60 * 60 * 1000 } }] },
      { toolCalls: [{ name: "shell", arguments: { command: "touch negative", timeout_ms: -5 } }] },
      { toolCalls: [{ name: "shell", arguments: { command: "touch fraction", timeout_ms: 1.5 } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["capped"]);
    expect(r.stderr).toContain("tool failed: timeout_ms must not be negative");
    expect(r.stderr).toContain("tool failed: invalid arguments for tool \"shell\"");
    expect(existsSync(join(s.inst.workspace, "negative"))).toBe(false);
    expect(existsSync(join(s.inst.workspace, "fraction"))).toBe(false);
  });
});

describe("stderr line 1 (contract §4)", () => {
  test("is the session line even when config notices, a shadowing diagnostic and the continued workspace are reported", async () => {
    s = await scenario({ protocol: "anthropic", modelExtra: "        temperature: 0.5\n        thinking_max_tokens: 1024", agentFrontmatter: "tools: [shell]" });
    s.inst.tool("shell", 'module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "user shell"; } };');
    s.server.script({ text: "one" }, { text: "two" });
    const first = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(first.code).toBe(0);
    const lines = first.stderr.split("\n");
    expect(lines[0]).toMatch(/^session: \S+$/);
    expect(lines.slice(1).join("\n")).toContain('tool "shell" replaces a built-in tool');
    expect(lines.slice(1).join("\n")).toContain("temperature");
    const id = sessionIdFrom(first.stderr);
    const next = await s.inst.run(["run", "-s", id, "-p", "y"], { cwd: s.inst.root });
    expect(next.code).toBe(0);
    expect(next.stderr.split("\n")[0]).toBe(`session: ${id}`);
    expect(next.stderr).toContain(s.inst.workspace);
  });
});

describe("tools omitted entirely when the agent has none (contract §7)", () => {
  for (const protocol of PROTOCOLS) {
    test(`no tools key, and tools: [] alike (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: []" });
      s.inst.agent("bare", "---\ndescription: d\nmodel: p/m\n---\nBare.\n");
      s.server.script({ text: "1" }, { text: "2" });
      expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
      expect((await s.inst.run(["run", "-a", "bare", "-p", "x"])).code).toBe(0);
      for (const request of s.server.requests) {
        const body = request.body as Record<string, unknown>;
        expect(Object.keys(body)).not.toContain("tools");
        expect(Object.keys(body)).not.toContain("tool_choice");
      }
    });
  }
});

describe("agents are global only (contract §3)", () => {
  test("-a with a path never reads an agent file from the workspace, before any request", async () => {
    s = await scenario();
    s.inst.file("evil.md", "---\ndescription: d\nmodel: p/m\n---\nFROM THE WORKSPACE\n");
    for (const id of ["../../../work/evil", join(s.inst.workspace, "evil")]) {
      const r = await s.inst.run(["run", "-a", id, "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^rienda: /);
    }
    expect(s.server.requests).toHaveLength(0);
    s.server.script({ text: "ok" });
    expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).not.toContain("FROM THE WORKSPACE");
  });
});

describe("provider errors inside a stream (contract §7: transient ones retried, others fail at once)", () => {
  for (const protocol of PROTOCOLS) {
    test(`an overloaded error after some text is retried and the partial text never printed; an invalid request fails at once (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "PARTIAL", streamError: { type: "overloaded_error", message: "Overloaded" } }, { text: "fine" });
      const retried = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(retried.code).toBe(0);
      expect(retried.stdout).toBe("fine\n");
      expect(retried.stderr).toMatch(/\ntransient error, retrying in [0-9.]+s: .*Overloaded\n/);

      s.server.reset();
      s.server.script({ text: "PARTIAL", streamError: { type: "invalid_request_error", message: "bad request here" } }, { text: "never" });
      const failed = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(failed.code).toBe(1);
      expect(s.server.requests).toHaveLength(1);
      expect(failed.stderr).not.toContain("retrying");
      expect(failed.stderr.trimEnd().split("\n").at(-1)).toMatch(/^rienda: .*bad request here/);
      expect(failed.stdout).not.toContain("PARTIAL");
    });
  }
});

describe("config.yaml is strict, Go-era files still load (contract §2)", () => {
  test("YAML anchors and merge keys, a BOM, CRLF line ends and a leading --- load as Go's yaml.v3 read them", async () => {
    s = await scenario();
    const yaml = configFor(s.server.url)
      .replace("    models:\n      m:\n        id: wire-model\n", "    models:\n      base: &base { id: wire-model, max_tokens: 77 }\n      m:\n        <<: *base\n        temperature: 0.5\n")
      .replace(/\n/g, "\r\n");
    s.inst.config(`\uFEFF---\r\n${yaml}`);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const body = s.server.requests[0]!.body as Record<string, unknown>;
    expect([body.model, body.max_tokens, body.temperature]).toEqual(["wire-model", 77, 0.5]);
  });
});
