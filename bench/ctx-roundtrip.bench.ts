// ctx round trip (ctx.env.get served by the main thread) against a raw Atomics ping-pong between two threads, same run.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRuntime } from "../src/runtime/index.ts";
import { report } from "./support/report.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5000);

async function rawPingPong(): Promise<number[]> {
  const buffer = new SharedArrayBuffer(4);
  const url = new URL("./support/ping-worker.ts", import.meta.url).href;
  const ping = new Worker(url);
  const pong = new Worker(url);
  const done = new Promise<number[]>((resolve) => (ping.onmessage = (e) => resolve(e.data as number[])));
  pong.postMessage({ buffer, role: "pong", rounds: ROUNDS });
  ping.postMessage({ buffer, role: "ping", rounds: ROUNDS });
  const times = await done;
  ping.terminate();
  pong.terminate();
  return times.slice(500);
}

async function ctxRoundTrip(): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "rienda-bench-"));
  const modulePath = join(dir, "index.js");
  writeFileSync(
    modulePath,
    `module.exports = { execute(ctx) { const t = []; for (let i = 0; i < ${ROUNDS}; i++) { const s = performance.now(); ctx.env.get("HOME"); t.push((performance.now() - s) * 1000); } return t; } };`,
  );
  const runtime = createRuntime();
  const frontEnd = { log() {}, output() {}, notify() {}, confirm: async () => false };
  const data = {
    workdir: dir,
    riendaDir: join(dir, ".rienda"),
    session: { id: "b", agentId: "", modelId: "", workdir: dir },
    agent: {
      name: "",
      description: "",
      model: "",
      tools: [],
      hooks: [],
      skills: [],
      agents: [],
      config: {},
      systemPrompt: "",
    },
    config: {},
  };
  const outcome = await runtime.invoke({
    modulePath,
    exportName: "execute",
    args: [],
    context: { data, frontEnd, signal: new AbortController().signal },
  });
  await runtime.close();
  if (outcome.kind !== "returned") throw new Error(`benchmark tool failed: ${JSON.stringify(outcome)}`);
  return (outcome.value as number[]).slice(500);
}

for (let i = 0; i < 2; i++) {
  report("raw Atomics ping-pong between two threads", await rawPingPong(), "us");
  report("ctx round trip (ctx.env.get, main thread)", await ctxRoundTrip(), "us");
}
