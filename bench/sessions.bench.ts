/**
 * Session store figures: loading a 10,000-message session for continuation
 * (open + parse + active branch), listing 1,000 sessions (cold: no index;
 * warm: index in place), and the cost of one append. Prints name, median
 * and spread (min–max) of each (the binary's own figures when dist/rienda exists); run with `node_modules/.bin/bun bench/sessions.bench.ts`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { collectGarbage } from "../src/platform.ts";
import type { Message } from "../src/providers/types.ts";
import { createSession, listSessions, openSession } from "../src/sessions/index.ts";

const root = mkdtempSync(join(tmpdir(), "rienda-bench-sessions-"));
const home = join(root, "home");
const workdir = join(root, "work");
mkdirSync(workdir);

/** One turn of a realistic coding conversation: prompt, tool call, tool result (~1 KB), answer. */
function turn(i: number): Message[] {
  return [
    {
      role: "user",
      blocks: [
        {
          type: "text",
          text: `Step ${i}: please look at src/module-${i}.ts and tell me what the exported function does.`,
        },
      ],
    },
    {
      role: "assistant",
      blocks: [
        { type: "thinking", thinking: "I should read the file before answering." },
        {
          type: "tool_call",
          toolCallId: `call_${i}`,
          toolCallName: "shell",
          toolCallArguments: { command: `cat src/module-${i}.ts` },
        },
      ],
    },
    {
      role: "user",
      blocks: [
        {
          type: "tool_result",
          toolResultCallId: `call_${i}`,
          toolResult: [{ type: "text", text: `export function f${i}() {\n  return ${i};\n}\n`.repeat(24) }],
        },
      ],
    },
    { role: "assistant", blocks: [{ type: "text", text: `It returns ${i}. `.repeat(12) }] },
  ];
}

function measure(name: string, runs: number, fn: () => void, setup?: () => void): void {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    setup?.();
    collectGarbage();
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  report(name, times, "ms");
}

function report(name: string, values: number[], unit: string): void {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const fmt = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(1));
  console.log(
    `${name.padEnd(38)} median ${fmt(median)} ${unit}   spread ${fmt(sorted[0]!)}–${fmt(sorted.at(-1)!)} ${unit} (${values.length} runs)`,
  );
}

try {
  // 1. Continue a 10,000-message session: open, parse, build the active branch.
  const big = createSession({ home, workdir, agent: "coder", model: "local/llama" });
  for (let i = 0; i < 2500; i++) for (const m of turn(i)) big.appendMessage(m);
  big.close();
  let count = 0;
  measure("continue-load 10,000 messages", 15, () => {
    const opened = openSession({ home, id: big.id, workdir });
    count = opened.messages().length;
    opened.close();
  });
  if (count !== 10_000) throw new Error(`expected 10000 messages, got ${count}`);
  console.log(`  (file: ${(statSync(big.path).size / 1e6).toFixed(1)} MB)`);

  // 2. Append cost per entry (one whole line per call), in batches of 200.
  const appender = openSession({ home, id: big.id, workdir });
  const perEntry: number[] = [];
  const sample = turn(1);
  for (let batch = 0; batch < 15; batch++) {
    const start = performance.now();
    for (let i = 0; i < 200; i++) appender.appendMessage(sample[i % 4]!);
    perEntry.push(((performance.now() - start) * 1000) / 200);
  }
  report("append one entry", perEntry, "µs");

  // 3. List 1,000 sessions of 20 messages each in one workspace.
  const listHome = join(root, "list-home");
  for (let s = 0; s < 1000; s++) {
    const session = createSession({ home: listHome, workdir, agent: "coder", model: "local/llama" });
    for (let i = 0; i < 5; i++) for (const m of turn(i)) session.appendMessage(m);
    session.close();
  }
  const indexPath = join(
    dirname(openSession({ home: listHome, id: listSessionsId(listHome), workdir }).path),
    ".index.json",
  );
  let listed = 0;
  measure(
    "list 1,000 sessions (cold, no index)",
    10,
    () => (listed = listSessions({ home: listHome, workdir }).length),
    () => rmSync(indexPath, { force: true }),
  );
  measure("list 1,000 sessions (warm index)", 15, () => (listed = listSessions({ home: listHome, workdir }).length));
  if (listed !== 1000) throw new Error(`expected 1000 sessions, got ${listed}`);
  // The whole command, process start included, when the binary is built.
  const binary = join(import.meta.dir, "../dist/rienda");
  if (existsSync(binary)) {
    const run = () => {
      const r = spawnSync(binary, ["sessions", "-C", workdir, "--json"], {
        env: { ...process.env, HOME: listHome },
        maxBuffer: 1 << 26,
      });
      if (r.status !== 0 || (JSON.parse(String(r.stdout)) as unknown[]).length !== 1000)
        throw new Error(`rienda sessions failed: ${String(r.stderr)}`);
    };
    measure("rienda sessions, 1,000 (cold process)", 10, run, () => rmSync(indexPath, { force: true }));
    measure("rienda sessions, 1,000 (warm process)", 10, run);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

function listSessionsId(h: string): string {
  return listSessions({ home: h, workdir })[0]!.id;
}
