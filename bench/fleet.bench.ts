// A fleet of runs the way docs/ci.md runs one: `xargs -P 8` over 100
// inputs, against the scripted provider answering 429 with Retry-After: 1
// to the first request of every third input. Figures: total wall time, p95
// of one run's wall time, and the peak of the summed RSS of all rienda
// processes alive at once (sampled every 20 ms from /proc).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProviderServer } from "../test/support/provider-server.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const RUNS = 100;
const work = mkdtempSync(join(tmpdir(), "rienda-bench-fleet-"));
const home = join(work, "home");
const server = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
writeFileSync(join(home, ".rienda/agents/bot.md"), "---\ndescription: bench\nmodel: p/m\n---\nBench.\n");
const limited = new Set<string>();
const answer = (request: { body: unknown }) => {
  const item = JSON.stringify(request.body).match(/item (\d+)/)![1]!;
  if (Number(item) % 3 === 0 && !limited.has(item)) {
    limited.add(item);
    return { error: { status: 429, type: "rate_limit_error", message: "slow down", headers: { "retry-after": "1" } } };
  }
  return { text: `done ${item}` };
};
server.script(...Array.from({ length: RUNS + Math.ceil(RUNS / 3) }, () => answer));
writeFileSync(join(work, "items.txt"), Array.from({ length: RUNS }, (_, i) => `${i}`).join("\n") + "\n");
const times = join(work, "times");
mkdirSync(times);

/** Sum of VmRSS (KiB) of every process running the binary. */
function fleetRssKiB(): number {
  let sum = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith(binary)) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) sum += Number(rss[1]);
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, fleetRssKiB())), 20);
const started = performance.now();
// Each run records its own start and end (ms since the epoch, from date +%s%N).
const script = `xargs -P 8 -I{} sh -c 's=$(date +%s%N); "$0" run -a bot -p "item {}" > /dev/null 2>&1 || echo "run {} failed" >&2; echo "$s $(date +%s%N)" > "$1/{}"' "${binary}" "${times}" < items.txt`;
const status = await new Promise<number | null>((done) =>
  spawn("sh", ["-c", script], { cwd: work, env: { PATH: process.env.PATH ?? "", HOME: home }, stdio: "inherit" }).on(
    "close",
    done,
  ),
);
const wall = performance.now() - started;
clearInterval(sampler);
if (status !== 0) throw new Error(`the fleet failed (xargs exit ${status})`);
const perRun = readdirSync(times).map((f) => {
  const [a, b] = readFileSync(join(times, f), "utf8").trim().split(" ").map(Number);
  return (b! - a!) / 1e6;
});
report(`fleet of ${RUNS} runs, xargs -P 8, a third rate-limited (Retry-After: 1): total wall`, [wall], "ms");
report("fleet: one run's wall time (the limited ones wait 1 s)", perRun, "ms");
const sorted = [...perRun].sort((a, b) => a - b);
console.log(
  `${"fleet: one run's wall time, p95".padEnd(48)} ${sorted[Math.floor(0.95 * (sorted.length - 1))]!.toFixed(2).padStart(15)} ms`,
);
report("fleet: peak RSS of all rienda processes at once", [peak / 1024], "MB");
await server.close();
