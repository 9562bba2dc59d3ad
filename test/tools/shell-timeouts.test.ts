/**
 * Contract §5: the built-in shell's timeout is 2 min by default and at most
 * 30 min, whatever timeout_ms asks. Neither can be waited for in a test, so
 * the command runner is one that records what the shell tool asked of it.
 */
import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShellTool, createToolRunner, type ToolCallContext } from "../../src/tools/index.ts";
import type { ProcessRequest } from "../../src/runtime/index.ts";

function context(): ToolCallContext {
  return {
    data: {
      workdir: tmpdir(),
      // No test here uses ctx.cache or ctx.store: nothing is written there.
      riendaDir: join(tmpdir(), "rienda-unused-home", ".rienda"),
      session: { id: "s", agentId: "a", modelId: "m", workdir: tmpdir() },
      agent: {
        name: "a",
        description: "",
        model: "m",
        tools: [],
        hooks: [],
        skills: [],
        agents: [],
        config: {},
        systemPrompt: "",
      },
      config: {},
    },
    frontEnd: { log: () => {}, output: () => {}, notify: () => {}, confirm: async () => false },
    signal: new AbortController().signal,
  };
}

/** The timeout the shell tool gives the command for `args`, and the result it makes of a command that timed out. */
async function timeoutFor(args: Record<string, unknown>): Promise<{ timeoutMs: number; text: string }> {
  const asked: ProcessRequest[] = [];
  const shell = createShellTool(async (request) => {
    asked.push(request);
    return { code: -1, stdout: "", stderr: "", timedOut: true, interrupted: false };
  });
  const result = await createToolRunner().runTool(shell, { command: "sleep 1000000", ...args }, context());
  return { timeoutMs: asked[0]!.timeoutMs ?? -1, text: result.text };
}

describe("shell timeouts (contract §5)", () => {
  test("2 minutes when timeout_ms is not given (or 0)", async () => {
    expect(await timeoutFor({})).toEqual({ timeoutMs: 120_000, text: "command timed out after 2m0s" });
    expect((await timeoutFor({ timeout_ms: 0 })).timeoutMs).toBe(120_000);
  });

  test("timeout_ms as asked up to 30 minutes, capped there beyond", async () => {
    expect((await timeoutFor({ timeout_ms: 5_000 })).timeoutMs).toBe(5_000);
    expect((await timeoutFor({ timeout_ms: 1_800_000 })).timeoutMs).toBe(1_800_000);
    expect(await timeoutFor({ timeout_ms: 7_200_000 })).toEqual({
      timeoutMs: 1_800_000,
      text: "command timed out after 30m0s",
    });
  });
});
