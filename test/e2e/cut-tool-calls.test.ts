/**
 * A tool call cut at the output limit (issue 30), on every protocol: the
 * answer is `max_tokens` even though a call was started; the call is never
 * run and never sent back; the run ends as a cut answer (exit 1, the key to
 * raise); `-s` continues with well-formed history. A 500 that says the
 * request is malformed (llama.cpp's answer to a broken call) is not retried.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sessionIdFrom } from "../support/session-reader.ts";
import { jsonEvents, PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const CUT =
  "the answer was cut short: the model reached its output limit (max_tokens); raise providers.p.models.m.max_tokens in config.yaml (now 5), or ask for a shorter answer";

describe("a tool call cut at max_tokens", () => {
  for (const protocol of PROTOCOLS) {
    test(`half-written arguments: not run, run_end max_tokens, -s sends none of it (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: [shell]", modelExtra: "        max_tokens: 5" });
      s.server.script({
        text: "Let me look.",
        toolCalls: [{ id: "call_cut1", name: "shell", rawArguments: '{"command":' }],
        stopReason: "max_tokens",
      });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "list files", "--json", "-y"]);
      expect(r.code).toBe(1);
      const events = jsonEvents(r.stdout);
      expect(events.find((e) => e.type === "message_end")).toMatchObject({
        text: "Let me look.",
        stopReason: "max_tokens",
        toolCalls: [],
      });
      expect(events.some((e) => e.type === "tool_call" || e.type === "tool_result")).toBe(false);
      expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "max_tokens", message: CUT });
      expect(s.server.requests).toHaveLength(1);

      s.server.script({ text: "continued" });
      const id = String(events.find((e) => e.type === "run_start")?.sessionId);
      const next = await s.inst.run(["run", "-s", id, "-p", "go on"]);
      expect(next.code).toBe(0);
      expect(next.stdout).toBe("continued\n");
      const sent = JSON.stringify(s.server.requests[1]!.body);
      expect(sent).not.toContain("call_cut1");
      expect(sent).not.toContain('{\\"command\\":');
      expect(sent).toContain("Let me look.");
    });

    test(`arguments complete when the limit hit: still not run, exit 1 naming the key (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools: [shell]", modelExtra: "        max_tokens: 5" });
      s.server.script({
        toolCalls: [{ id: "call_cut2", name: "shell", arguments: { command: "touch ran" } }],
        stopReason: "max_tokens",
      });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "touch it", "-y"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rienda: ${CUT}`);
      expect(existsSync(join(s.inst.workspace, "ran"))).toBe(false);
      expect(s.server.requests).toHaveLength(1);
      // The stored answer has nothing left but the cut: the next request says it was empty, no call.
      s.server.script({ text: "continued" });
      const next = await s.inst.run(["run", "-s", sessionIdFrom(r.stderr), "-p", "go on"]);
      expect(next.code).toBe(0);
      const sent = JSON.stringify(s.server.requests[1]!.body);
      expect(sent).not.toContain("call_cut2");
      expect(sent).toContain("[This answer was empty.]");
    });
  }
});

describe("an HTTP 500 saying the request is malformed", () => {
  test("is not retried: exit 1 with the server's message after one request", async () => {
    s = await scenario();
    s.server.script({
      error: {
        status: 500,
        type: "server_error",
        message: "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101]",
      },
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toContain("HTTP 500: Failed to parse tool call arguments as JSON");
    expect(s.server.requests).toHaveLength(1);
  });
});
