// The harness's own time per turn: the engine, hook dispatch, history
// rebuilding and the session file append, with a model that answers at once
// (no HTTP) and a tool that returns at once. Then the same turn through the
// real HTTP + SSE client against the scripted provider, for comparison.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent, type HookPort, type ModelPort, type ToolPort } from "../src/engine/index.ts";
import { createModelClient, type ResolvedModel, type StreamEvent } from "../src/providers/index.ts";
import { createSession } from "../src/sessions/index.ts";
import { startProviderServer } from "../test/support/provider-server.ts";
import { report } from "./support/report.ts";

const home = mkdtempSync(join(tmpdir(), "rienda-bench-turn-"));
const workdir = mkdtempSync(join(tmpdir(), "rienda-bench-work-"));
const TURNS = 10;

const instantModel = (): ModelPort => {
  let n = 0;
  return {
    async *stream(): AsyncIterable<StreamEvent> {
      n++;
      const last = n % TURNS === 0;
      yield { type: "text_delta", text: "thinking about it" };
      yield {
        type: "done",
        response: {
          message: {
            role: "assistant",
            blocks: last
              ? [{ type: "text", text: "done" }]
              : [
                  { type: "text", text: "step" },
                  { type: "tool_call", toolCallId: `c${n}`, toolCallName: "t", toolCallArguments: { i: n } },
                ],
          },
          stopReason: last ? "end_turn" : "tool_use",
          usage: { inputTokens: 100, outputTokens: 10 },
        },
      };
    },
  };
};

const tools: ToolPort = {
  specs: () => [{ name: "t", description: "trivial", parameters: { type: "object" } }],
  has: (name) => name === "t",
  run: async (call) => ({ text: `result ${JSON.stringify(call.arguments)}`, isError: false }),
};
const noHooks: HookPort = {
  names: [],
  handles: () => false,
  call: async () => ({ kind: "returned", value: undefined }),
};

const model: ResolvedModel = {
  ref: "p/m",
  provider: "p",
  alias: "m",
  wireId: "m",
  protocol: "openai_chat_completions",
  baseUrl: "",
  apiKey: "",
  headers: {},
};

async function runOnce(modelPort: ModelPort, m: ResolvedModel): Promise<number> {
  const session = createSession({ home, workdir, agent: "a", model: "p/m" });
  const t = performance.now();
  const outcome = await runAgent({
    prompt: "go",
    system: "You are a benchmark.",
    model: m,
    agentId: "a",
    modelPort,
    tools,
    hooks: noHooks,
    session,
    emit: () => {},
    signal: new AbortController().signal,
  });
  if (outcome.reason !== "end_turn") throw new Error(`run ended with ${outcome.reason}: ${outcome.message}`);
  return (performance.now() - t) / TURNS;
}

const local: number[] = [];
for (let i = 0; i < 60; i++) local.push(await runOnce(instantModel(), model));
report("per turn, harness only (instant model, instant tool)", local.slice(10), "ms");

const server = await startProviderServer();
const httpModel = { ...model, baseUrl: `${server.url}/v1` };
const client = createModelClient();
const http: number[] = [];
for (let i = 0; i < 40; i++) {
  for (let turn = 1; turn < TURNS; turn++)
    server.script({ text: "step", toolCalls: [{ id: `c${turn}`, name: "t", arguments: { i: turn } }] });
  server.script({ text: "done" });
  http.push(await runOnce(client, httpModel));
}
report("per turn, with HTTP+SSE to the scripted provider", http.slice(5), "ms");
await server.close();
