// What a subagent call adds over running the child alone, with the scripted
// provider answering at once (so only harness time counts).
// In process: the child run alone (set up from the files, new session, one
// tool call and its answer, closed) beside the same child run through the
// parent's agent__reviewer tool (set up with the parent's config, child
// session, events tagged and passed up), alternated; then a second call of
// the same parent, whose child is already prepared (the difference is what
// preparing the child when first called costs that call).
// Whole process, compiled binary: `rienda run -a reviewer` beside
// `rienda run -a lead`, whose model calls agent__reviewer and then answers;
// that difference also holds the parent's own two model turns.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepareRun } from "../src/compose/index.ts";
import { runAgent } from "../src/engine/index.ts";
import { createModelClient } from "../src/providers/index.ts";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const work = mkdtempSync(join(tmpdir(), "rienda-bench-subagents-"));
const home = join(work, "home");
const server: ProviderServer = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
mkdirSync(join(home, ".rienda/tools/echo"), { recursive: true });
writeFileSync(
  join(home, ".rienda/tools/echo/index.js"),
  `module.exports = { description: "Echo.", parameters: { type: "object" }, execute() { return "ok"; } };`,
);
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      big: {}\n      small: {}\n`,
);
writeFileSync(
  join(home, ".rienda/agents/reviewer.md"),
  `---\ndescription: Reviews.\nmodel: p/small\ntools: [echo]\n---\nYou review.\n`,
);
writeFileSync(
  join(home, ".rienda/agents/lead.md"),
  `---\ndescription: Leads.\nmodel: p/big\nagents: [reviewer]\n---\nYou lead.\n`,
);
const env = { PATH: process.env.PATH ?? "", HOME: home };

/** ms from spawn to exit of one run. */
async function timeRun(agent: string): Promise<number> {
  server.reset();
  if (agent === "lead")
    server.script({ toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "review" } }] });
  server.script({ toolCalls: [{ id: "e1", name: "echo", arguments: {} }] }, { text: "fine" });
  if (agent === "lead") server.script({ text: "done" });
  const start = performance.now();
  const child = spawn(binary, ["run", "-a", agent, "-p", "review"], { env, cwd: work, stdio: "ignore" });
  const code = await new Promise((r) => child.on("close", r));
  if (code !== 0) throw new Error(`rienda run -a ${agent} exited with ${String(code)}`);
  return performance.now() - start;
}

// In process.
{
  const dialogs = { confirm: async () => false, notify: () => undefined };
  const request = { home, env, workdir: work };
  const signal = new AbortController().signal;
  const childTurns = () => server.script({ toolCalls: [{ id: "e1", name: "echo", arguments: {} }] }, { text: "fine" });
  const runAlone = async (): Promise<number> => {
    server.reset();
    childTurns();
    const start = performance.now();
    const run = await prepareRun({ ...request, agentId: "reviewer" }, dialogs);
    const { system, model, tools, hooks, session } = run;
    const outcome = await runAgent({
      prompt: "review",
      system,
      model,
      agentId: "reviewer",
      modelPort: createModelClient(),
      tools,
      hooks,
      session,
      emit: () => undefined,
      signal,
    });
    await run.close();
    if (outcome.reason !== "end_turn") throw new Error(`child alone: ${outcome.message}`);
    return performance.now() - start;
  };
  /** The first call (which prepares the child: children are prepared when first called) and a second one (which reuses it). */
  const runNested = async (): Promise<[number, number]> => {
    server.reset();
    const lead = await prepareRun({ ...request, agentId: "lead" }, dialogs);
    const call = async (): Promise<number> => {
      childTurns();
      const start = performance.now();
      const result = await lead.tools.run(
        { id: "r1", name: "agent__reviewer", arguments: { prompt: "review" } },
        { log: () => undefined, output: () => undefined, nested: () => undefined },
        signal,
      );
      const elapsed = performance.now() - start;
      if (result.isError) throw new Error(`subagent: ${result.text}`);
      return elapsed;
    };
    const first = await call();
    const second = await call();
    await lead.close();
    return [first, second];
  };
  const alone: number[] = [];
  const nested: number[] = [];
  const again: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < 45; i++) {
    const a = await runAlone();
    const [b, c] = await runNested();
    if (i < 5) continue;
    alone.push(a);
    nested.push(b);
    again.push(c);
    diff.push(b - a);
  }
  report("in process: child run alone", alone, "ms");
  report("in process: same run as a first agent__ call", nested, "ms");
  report("  difference per alternated pair", diff, "ms");
  report("in process: a second call (child prepared)", again, "ms");
}

const alone: number[] = [];
const nested: number[] = [];
const diff: number[] = [];
for (let i = 0; i < 33; i++) {
  const a = await timeRun("reviewer");
  const b = await timeRun("lead");
  if (i < 3) continue;
  alone.push(a);
  nested.push(b);
  diff.push(b - a);
}
report("whole process: rienda run -a reviewer", alone, "ms");
report("whole process: rienda run -a lead (+2 turns)", nested, "ms");
report("  difference per alternated pair", diff, "ms");
await server.close();
