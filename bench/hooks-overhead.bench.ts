// What hooks cost per tool call: the same run of one trivial user tool call,
// with no hooks and with three hooks that each handle beforeToolExecute and
// afterToolExecute (six extra fresh-context invocations per call). Real
// runtime and workers; the model answers at once (no HTTP).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAgent } from "../src/agents/index.ts";
import { loadAgentExtensions } from "../src/cli/agent-extensions.ts";
import { runAgent, type ModelPort } from "../src/engine/index.ts";
import type { ResolvedModel, StreamEvent } from "../src/providers/index.ts";
import { createSession } from "../src/sessions/index.ts";
import { report } from "./support/report.ts";

const home = mkdtempSync(join(tmpdir(), "rienda-bench-hooks-"));
const workdir = mkdtempSync(join(tmpdir(), "rienda-bench-hooks-work-"));
const rienda = join(home, ".rienda");
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
write(join(rienda, "tools/trivial/index.js"), `module.exports = { description: "d", parameters: { type: "object" }, execute() { return "ok"; } };`);
for (const name of ["h1", "h2", "h3"]) {
  write(join(rienda, `hooks/${name}/index.js`), `module.exports = { beforeToolExecute(ctx, call) { return { arguments: call.arguments }; }, afterToolExecute(ctx, call, r) { return { text: r.text }; } };`);
}
write(join(rienda, "agents/plain.md"), "---\ndescription: d\nmodel: p/m\ntools: [trivial]\n---\nx\n");
write(join(rienda, "agents/hooked.md"), "---\ndescription: d\nmodel: p/m\ntools: [trivial]\nhooks: [h1, h2, h3]\n---\nx\n");

const model: ResolvedModel = { ref: "p/m", provider: "p", alias: "m", wireId: "m", protocol: "openai_chat_completions", baseUrl: "", apiKey: "", headers: {} };
const oneCall = (): ModelPort => {
  let n = 0;
  return {
    async *stream(): AsyncIterable<StreamEvent> {
      n++;
      const blocks = n === 1 ? [{ type: "tool_call" as const, toolCallId: "c", toolCallName: "trivial", toolCallArguments: {} }] : [{ type: "text" as const, text: "done" }];
      yield { type: "done", response: { message: { role: "assistant", blocks }, stopReason: n === 1 ? "tool_use" : "end_turn" } };
    },
  };
};

async function measure(agentId: string, runs: number): Promise<number[]> {
  const agent = loadAgent(home, agentId);
  const ext = await loadAgentExtensions({ home, agent, dialogs: { confirm: async () => false, notify: () => {} } });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const session = createSession({ home, workdir, agent: agentId, model: "p/m" });
    ext.bind({ workdir, session: { id: session.id, agentId, modelId: "p/m", workdir }, agent: { name: agentId, description: "d", model: "p/m", tools: agent.tools, hooks: agent.hooks, config: {}, systemPrompt: "x" }, config: {} });
    const t = performance.now();
    const outcome = await runAgent({ prompt: "go", system: "x", model, agentId, modelPort: oneCall(), tools: ext.tools, hooks: ext.hooks, session, emit: () => {}, signal: new AbortController().signal });
    times.push(performance.now() - t);
    if (outcome.reason !== "end_turn") throw new Error(String(outcome.message));
  }
  ext.close();
  return times.slice(10);
}

const plain = await measure("plain", 110);
const hooked = await measure("hooked", 110);
report("run with one tool call, no hooks", plain, "ms");
report("same, 3 hooks on both tool points", hooked, "ms");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`added per tool call by 3 hooks x 2 points: ${(median(hooked) - median(plain)).toFixed(2)} ms (goal <= 6 ms)`);
