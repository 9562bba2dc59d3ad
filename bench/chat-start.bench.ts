// The full-screen chat's start (issue 42's two figures): time from the
// program's start to its first complete frame (the status line drawn), and
// its RSS once idle at the editor. The compiled binary runs in a tmux pane
// at 80x24 against the scripted provider; the pane's shell stamps the time
// and `exec`s rienda, so the pane's pid is rienda's and the time excludes
// tmux's own start. The screen is polled every 2 ms, so a figure is late by
// up to that much. Needs tmux and /proc; skipped without them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProviderServer } from "../test/support/provider-server.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
if (spawnSync("tmux", ["-V"]).status !== 0 || !existsSync("/proc/self/status")) {
  console.log("chat-start: needs tmux and /proc, skipped");
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), "rienda-bench-chat-"));
const home = join(work, "home");
const server = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
writeFileSync(
  join(home, ".rienda/agents/coder.md"),
  "---\ndescription: bench\nmodel: p/m\ntools: [shell]\n---\nBench.\n",
);
let socket = "";
const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });

/** One start: ms to the first frame, and the idle RSS in MB. */
async function once(run: number): Promise<{ ms: number; rss: number }> {
  // A server per run: a new one on the socket of one just killed can fail to start.
  socket = join(work, `tmux-${run}.sock`);
  const stamp = join(work, "started");
  rmSync(stamp, { force: true });
  const script = `date +%s%N > ${stamp}; exec env -i HOME=${home} PATH=${process.env.PATH} TERM=xterm-256color NO_COLOR=1 ${binary} -a coder`;
  const made = tmux("-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", "80", "-y", "24", "-c", work, script);
  if (made.status !== 0) throw new Error(`tmux: ${made.stderr}`);
  let seen = 0;
  for (let i = 0; i < 5000 && seen === 0; i++) {
    if (/agent coder · model p\/m/.test(tmux("capture-pane", "-p", "-t", "b").stdout)) seen = Date.now();
    else await Bun.sleep(2);
  }
  if (seen === 0 || !existsSync(stamp))
    throw new Error(`no first frame: ${tmux("capture-pane", "-p", "-t", "b").stdout}`);
  const started = Number(readFileSync(stamp, "utf8").trim()) / 1e6;
  await Bun.sleep(1500);
  const pid = tmux("display-message", "-p", "-t", "b", "#{pane_pid}").stdout.trim();
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
  tmux("kill-server");
  return { ms: seen - started, rss };
}

const frames: number[] = [];
const rss: number[] = [];
const runs = Number(process.env.RUNS ?? 10);
for (let i = 0; i < runs; i++) {
  const r = await once(i);
  frames.push(r.ms);
  rss.push(r.rss);
}
report("full-screen chat, start to first frame", frames, "ms");
report("full-screen chat, RSS idle at the editor", rss, "MB");
server.close();
rmSync(work, { recursive: true, force: true });
