// What hooks cost per tool call: the same run of one trivial user tool call,
// with no hooks and with three hooks that each handle beforeToolExecute and
// afterToolExecute (six extra fresh-context invocations per call). Real
// runtime and workers; the model answers at once (no HTTP).
// Runs are measured twice: with a pause between runs (untimed; a real model
// turn takes far longer, and the realm helper makes realms ahead then), and
// back to back (no pause at all).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAgent } from "../src/agents/index.ts";
import { loadAgentExtensions } from "../src/compose/index.ts";
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
write(
  join(rienda, "tools/trivial/index.js"),
  `module.exports = { description: "d", parameters: { type: "object" }, execute() { return "ok"; } };`,
);
for (const name of ["h1", "h2", "h3"]) {
  write(
    join(rienda, `hooks/${name}/index.js`),
    `module.exports = { beforeToolExecute(ctx, call) { return { arguments: call.arguments }; }, afterToolExecute(ctx, call, r) { return { text: r.text }; } };`,
  );
}
write(join(rienda, "agents/plain.md"), "---\ndescription: d\nmodel: p/m\ntools: [trivial]\n---\nx\n");
write(
  join(rienda, "agents/hooked.md"),
  "---\ndescription: d\nmodel: p/m\ntools: [trivial]\nhooks: [h1, h2, h3]\n---\nx\n",
);

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
const oneCall = (): ModelPort => {
  let n = 0;
  return {
    async *stream(): AsyncIterable<StreamEvent> {
      n++;
      const blocks =
        n === 1
          ? [{ type: "tool_call" as const, toolCallId: "c", toolCallName: "trivial", toolCallArguments: {} }]
          : [{ type: "text" as const, text: "done" }];
      yield {
        type: "done",
        response: { message: { role: "assistant", blocks }, stopReason: n === 1 ? "tool_use" : "end_turn" },
      };
    },
  };
};

/** Untimed pause between runs: stands for the model's turn, when the helper makes realms ahead. */
const GAP_MS = 50;

async function measure(agentId: string, runs: number, gapMs: number): Promise<number[]> {
  const agent = loadAgent(home, agentId);
  const ext = await loadAgentExtensions({ home, agent, dialogs: { confirm: async () => false, notify: () => {} } });
  // Bound once, as `rienda run` does: every tool call of a session shares the ctx data.
  ext.bind({
    workdir,
    riendaDir: join(home, ".rienda"),
    session: { id: "bench", agentId, modelId: "p/m", workdir },
    agent: {
      name: agentId,
      description: "d",
      model: "p/m",
      tools: agent.tools,
      hooks: agent.hooks,
      skills: [],
      agents: [],
      config: {},
      systemPrompt: "x",
    },
    config: {},
  });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    const session = createSession({ home, workdir, agent: agentId, model: "p/m" });
    const t = performance.now();
    const outcome = await runAgent({
      prompt: "go",
      system: "x",
      model,
      agentId,
      modelPort: oneCall(),
      tools: ext.tools,
      hooks: ext.hooks,
      session,
      emit: () => {},
      signal: new AbortController().signal,
    });
    times.push(performance.now() - t);
    if (outcome.reason !== "end_turn") throw new Error(String(outcome.message));
  }
  ext.close();
  return times.slice(10);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [label, gap, runs] of [
  [`${GAP_MS} ms between runs`, GAP_MS, 70],
  ["back to back", 0, 110],
] as const) {
  const plain = await measure("plain", runs, gap);
  const hooked = await measure("hooked", runs, gap);
  report(`run with one tool call, no hooks (${label})`, plain, "ms");
  report(`same, 3 hooks on both tool points (${label})`, hooked, "ms");
  console.log(
    `added per tool call by 3 hooks x 2 points (${label}): ${(median(hooked) - median(plain)).toFixed(2)} ms (goal <= 6 ms)`,
  );
}
