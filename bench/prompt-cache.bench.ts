// Prompt caching over a 20-turn agent run of the built binary (dist/rienda)
// against the scripted Anthropic provider, whose cache behaves as Anthropic
// documents (test/support/anthropic-cache.ts: longest marked prefix, 20-block
// lookback, 1024-token minimum, tokens ~ bytes / 4). Each turn the model
// calls the shell tool, whose output (~1.2 KB) joins the conversation.
// Prints, per turn, the bytes sent and the share of the prompt read from
// cache; then the share over turns 2-20, with caching on and with
// `cache: false`. Figures are quoted in docs, never asserted.
import { resolve } from "node:path";
import { AnthropicCacheSim } from "../test/support/anthropic-cache.ts";
import { Instance } from "../test/support/instance.ts";
import { startProviderServer, type RecordedRequest } from "../test/support/provider-server.ts";

const TURNS = 20;
const binary = process.env.RIENDA_BINARY ?? resolve(import.meta.dir, "../dist/rienda");
process.env.RIENDA_BINARY = binary;

// A system prompt of the size real agents have (~4 KB).
const AGENT_BODY = Array.from(
  { length: 24 },
  (_, i) =>
    `Rule ${i + 1}: read the files you change, keep edits small, run the tests that cover them, and say what you did in one line.`,
).join("\n");

interface Turn {
  bytes: number;
  total: number;
  read: number;
  write: number;
}

async function measure(cache: boolean): Promise<Turn[]> {
  const server = await startProviderServer();
  const sim = new AnthropicCacheSim();
  const turns: Turn[] = [];
  const answer = (n: number) => (request: RecordedRequest) => {
    const usage = sim.account(request.body);
    turns.push({
      bytes: Buffer.byteLength(JSON.stringify(request.body)),
      total: usage.total,
      read: usage.cacheRead,
      write: usage.cacheWrite,
    });
    const scriptedUsage = { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite, output: 40 };
    if (n === TURNS) return { text: "All twenty steps are done.", usage: scriptedUsage };
    return {
      text: `Step ${n}: listing the numbers.`,
      toolCalls: [{ name: "shell", arguments: { command: `seq ${n * 1000} ${n * 1000 + 250}` } }],
      usage: scriptedUsage,
    };
  };
  server.script(...Array.from({ length: TURNS }, (_, i) => answer(i + 1)));
  const inst = new Instance();
  try {
    inst.config(
      [
        "providers:",
        "  claude:",
        "    protocol: anthropic",
        `    base_url: ${server.url}`,
        "    api_key: bench",
        "    models:",
        "      sonnet:",
        "        id: claude-sonnet-4-5",
        `        cache: ${cache}`,
        "",
      ].join("\n"),
    );
    inst.agent(
      "worker",
      `---\ndescription: Works in steps.\nmodel: claude/sonnet\ntools: [shell]\n---\n${AGENT_BODY}\n`,
    );
    const r = await inst.run(["run", "-a", "worker", "-p", "Count through the twenty steps.", "-y"]);
    if (r.code !== 0) throw new Error(`the run failed (${r.code}): ${r.stderr}`);
  } finally {
    inst.dispose();
    await server.close();
  }
  return turns;
}

function share(turns: Turn[]): number {
  const later = turns.slice(1);
  const read = later.reduce((sum, t) => sum + t.read, 0);
  const total = later.reduce((sum, t) => sum + t.total, 0);
  return total === 0 ? 0 : read / total;
}

const on = await measure(true);
const off = await measure(false);
console.log("turn  bytes sent  prompt tokens  cache read  cache write  read share");
for (const [i, t] of on.entries()) {
  console.log(
    `${String(i + 1).padStart(4)}  ${String(t.bytes).padStart(10)}  ${String(t.total).padStart(13)}  ${String(t.read).padStart(10)}  ${String(t.write).padStart(11)}  ${((100 * t.read) / t.total).toFixed(1).padStart(9)}%`,
  );
}
const sorted = on.map((t) => t.bytes).sort((a, b) => a - b);
console.log(
  `${"prompt cache: share of input read from cache, turns 2-20".padEnd(60)} ${(100 * share(on)).toFixed(1)}%`,
);
console.log(`${"same run with cache: false".padEnd(60)} ${(100 * share(off)).toFixed(1)}%`);
console.log(
  `${"bytes sent per turn (median, first, last)".padEnd(60)} ${sorted[Math.floor(sorted.length / 2)]}, ${on[0]?.bytes}, ${on.at(-1)?.bytes}`,
);
const written = on.reduce((sum, t) => sum + t.write, 0);
const total = on.reduce((sum, t) => sum + t.total, 0);
console.log(`${"tokens written to cache / all prompt tokens".padEnd(60)} ${written} / ${total}`);
