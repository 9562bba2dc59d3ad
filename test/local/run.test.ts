/**
 * `rienda run` against a real llama.cpp server and the puppet model
 * (test/local/fixtures/README.md says what it answers): plain and `--json`
 * runs, the real tool call, continuation with `-s`, calls that arrive as
 * text, a server that refuses tools, and an answer cut at the output limit
 * (issue 30).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Instance } from "../support/instance.ts";
import { jsonEvents } from "../support/scenario.ts";
import { sessionIdFrom } from "../support/session-reader.ts";
import {
  localConfig,
  puppetAgent,
  startLlamaServer,
  TEXT_CALLS_TEMPLATE,
  type LlamaServer,
} from "./support/llama-server.ts";

let server: LlamaServer;
let inst: Instance | undefined;
beforeAll(async () => {
  server = await startLlamaServer();
});
afterAll(async () => {
  await server.kill();
});
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

function instance(url: string, tools: string[] = [], modelExtra: string[] = []): Instance {
  const created = new Instance();
  created.config(localConfig(url, modelExtra));
  created.agent("puppet", puppetAgent(tools));
  return created;
}

describe("a run against llama.cpp", () => {
  test("plain: the model's answer on stdout, the session on stderr", async () => {
    inst = instance(server.url);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Say hello."]);
    expect(r.stderr).toMatch(/^session: [0-9a-z]{26}\n$/);
    expect(r.stdout).toBe("Hello from the puppet model.\n");
    expect(r.code).toBe(0);
  });

  test("--json: the streamed deltas, the answer, llama.cpp's usage with its prompt cache", async () => {
    inst = instance(server.url);
    await inst.run(["run", "-a", "puppet", "-p", "warm the cache"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Say hello.", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Hello from the puppet model.");
    const end = events.find((e) => e.type === "message_end") as unknown as {
      text: string;
      stopReason: string;
      usage: Record<string, number>;
      model: string;
    };
    expect(end).toMatchObject({ text: "Hello from the puppet model.", stopReason: "end_turn", model: "puppet" });
    expect(end.usage.inputTokens).toBeGreaterThan(0);
    expect(end.usage.outputTokens).toBe(7);
    expect(end.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
  });

  test("the real tool call: shell runs, its result goes back, the final answer arrives; -s continues", async () => {
    inst = instance(server.url, ["shell"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "--json", "-y"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({
      name: "shell",
      arguments: { command: "echo puppet-ok" },
    });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      name: "shell",
      text: "puppet-ok",
      isError: false,
    });
    expect(events.filter((e) => e.type === "message_end").map((e) => e.stopReason)).toEqual(["tool_use", "end_turn"]);
    expect(events.at(-1)).toMatchObject({
      type: "run_end",
      reason: "end_turn",
      tools: { calls: 1, failed: 0, refused: 0 },
    });

    const id = String(events.find((e) => e.type === "run_start")?.sessionId);
    const next = await inst.run(["run", "-s", id, "-p", "And now?"]);
    // The history holds the call and its result, so the puppet answers as after a tool result.
    expect(next.stdout).toBe("Tool result received: done!\n");
    expect(next.code).toBe(0);
  });
});

describe("tool calls that arrive as text (a template llama.cpp cannot parse)", () => {
  let textServer: LlamaServer;
  beforeAll(async () => {
    textServer = await startLlamaServer({ chatTemplate: TEXT_CALLS_TEMPLATE });
  });
  afterAll(async () => {
    await textServer.kill();
  });

  test("default (auto, a server on this machine): the <tool_call> text is run as the call it is", async () => {
    inst = instance(textServer.url, ["shell"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "--json", "-y"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.some((e) => e.type === "text_delta" && String(e.text).includes("tool_call"))).toBe(false);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      name: "shell",
      text: "puppet-ok",
      isError: false,
    });
    expect(events.filter((e) => e.type === "message_end").map((e) => [e.stopReason, e.text])).toEqual([
      ["tool_use", ""],
      ["end_turn", "Tool result received: done!"],
    ]);
  });

  test("tool_calls_in_text: hermes, plain output: only the final answer on stdout", async () => {
    inst = instance(textServer.url, ["shell"], ["tool_calls_in_text: hermes"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "-y"]);
    expect(r.stdout).toBe("Tool result received: done!\n");
    expect(r.code).toBe(0);
  });

  test("off: nothing runs, the text is the answer, and a notice names the setting", async () => {
    inst = instance(textServer.url, ["shell"], ["tool_calls_in_text: off"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "-y"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('<tool_call>\n{"name": "shell", "arguments": {"command": "echo puppet-ok"}}\n</tool_call>\n');
    expect(r.stderr).toContain(
      "rienda: local/puppet wrote what looks like a tool call as text (<tool_call>); nothing was run. Set providers.local.models.puppet.tool_calls_in_text: hermes in config.yaml to run such calls, or give the server a chat template that maps the model's calls (llama-server --chat-template-file, vllm --tool-call-parser)\n",
    );
    // The server took the tools, so it runs with --jinja already: the notice does not suggest it.
    expect(r.stderr).not.toContain("--jinja");
  });

  test("the parsing server and the text server give the same session shape: -s continues on either", async () => {
    inst = instance(textServer.url, ["shell"]);
    const first = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "-y"]);
    expect(first.code).toBe(0);
    inst.config(localConfig(server.url));
    const next = await inst.run(["run", "-s", sessionIdFrom(first.stderr), "-p", "And now?"]);
    expect(next.stdout).toBe("Tool result received: done!\n");
  });
});

describe("a server that refuses tools (llama-server --no-jinja)", () => {
  let legacy: LlamaServer;
  beforeAll(async () => {
    legacy = await startLlamaServer({ noJinja: true });
  });
  afterAll(async () => {
    await legacy.kill();
  });

  test("fails at once, not retried, with the flag to start it with", async () => {
    inst = instance(legacy.url, ["shell"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell."]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toContain(
      `rienda: provider "local" (${legacy.url}/v1): HTTP 500: tools param requires --jinja flag. Start llama-server with --jinja (its default; tool calling needs it), or use an agent without tools`,
    );
  });

  test("an agent without tools still talks to it", async () => {
    inst = instance(legacy.url);
    const r = await inst.run(["run", "-a", "puppet", "-p", "Say hello."]);
    expect(r.stdout).toBe("Hello from the puppet model.\n");
  });
});

describe("an answer cut at the output limit (issue 30)", () => {
  for (const maxTokens of [3, 4, 5]) {
    test(`max_tokens ${maxTokens}: the half-written call is not run, not sent back; exit 1 names the key; -s continues`, async () => {
      inst = instance(server.url, ["shell"], [`max_tokens: ${maxTokens}`]);
      const r = await inst.run(["run", "-a", "puppet", "-p", "Check the shell.", "--json", "-y"]);
      expect(r.code).toBe(1);
      const events = jsonEvents(r.stdout);
      expect(events.find((e) => e.type === "message_end")).toMatchObject({ stopReason: "max_tokens", toolCalls: [] });
      expect(events.some((e) => e.type === "tool_call" || e.type === "retry")).toBe(false);
      expect(events.at(-1)).toMatchObject({
        type: "run_end",
        reason: "max_tokens",
        message: `the answer was cut short: the model reached its output limit (max_tokens); raise providers.local.models.puppet.max_tokens in config.yaml (now ${maxTokens}), or ask for a shorter answer`,
      });
      expect(existsSync(join(inst.workspace, "puppet-ok"))).toBe(false);

      // The stored history is well formed: llama.cpp takes it (no HTTP 500 on broken arguments).
      inst.config(localConfig(server.url));
      const id = String(events.find((e) => e.type === "run_start")?.sessionId);
      const next = await inst.run(["run", "-s", id, "-p", "Say hello.", "-y"]);
      expect(next.stderr).not.toContain("HTTP 500");
      expect(next.code).toBe(0);
    });
  }
});
