// Peak memory of whole `rienda run` processes (the compiled binary against
// the scripted provider), split into what is the executable's own pages and
// what the process allocated: a run with one `shell` call, and the same with
// three hooks on both tool points (issue 16's two memory figures).
//
// The split is sampled from /proc/PID/status every millisecond: RssFile
// (pages of files, nearly all of them the 115 MB executable: Bun's code and
// our embedded modules; shared and clean) and RssAnon (heaps, stacks,
// buffers). The peak is the kernel's own (VmHWM, read at exit by
// /usr/bin/time). Linux only.
//
// How much of the executable a run maps depends on the page cache: a binary
// just written (make build, cp) is cached in large pieces, and mapping it
// brings whole pieces in (measured: 58.5 MB peak); the same file read back
// from disk (after `echo 3 > /proc/sys/vm/drop_caches`, or on an installed
// binary not rewritten since the last boot) gives 54.5 MB. RssAnon does not
// change. Compare peaks only between binaries in the same state.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startProviderServer } from "../test/support/provider-server.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
if (!existsSync("/proc/self/status") || !existsSync("/usr/bin/time")) {
  console.log("memory: needs /proc and /usr/bin/time, skipped");
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), "rienda-bench-memory-"));
const home = join(work, "home");
const server = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
for (const name of ["h1", "h2", "h3"]) {
  mkdirSync(join(home, ".rienda/hooks", name), { recursive: true });
  writeFileSync(
    join(home, ".rienda/hooks", name, "index.js"),
    "module.exports = { beforeToolExecute() {}, afterToolExecute() {} };",
  );
}
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
writeFileSync(
  join(home, ".rienda/agents/shell.md"),
  "---\ndescription: shell\nmodel: p/m\ntools: [shell]\n---\nBench.\n",
);
writeFileSync(
  join(home, ".rienda/agents/hooked.md"),
  "---\ndescription: shell, hooked\nmodel: p/m\ntools: [shell]\nhooks: [h1, h2, h3]\n---\nBench.\n",
);
const env = {
  PATH: process.env.PATH ?? "",
  HOME: home,
  ...(process.env.RIENDA_CONTEXTS ? { RIENDA_CONTEXTS: process.env.RIENDA_CONTEXTS } : {}),
};

interface Sample {
  peak: number;
  anon: number;
  file: number;
}

const kb = (status: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);

/** One run of `agent` with one shell call; the peak (VmHWM) and the largest RssAnon and RssFile seen, in MB. */
async function runOnce(agent: string): Promise<Sample> {
  server.reset();
  server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] });
  server.script({ text: "done" });
  const child = spawn("/usr/bin/time", ["-f", "%M", binary, "run", "-a", agent, "-p", "go"], {
    env,
    cwd: work,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let anon = 0;
  let file = 0;
  let pid: number | undefined;
  const poll = setInterval(() => {
    try {
      // /usr/bin/time's child is the binary.
      pid ??=
        Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/)[0]) ||
        undefined;
      if (pid === undefined) return;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      anon = Math.max(anon, kb(status, "RssAnon"));
      file = Math.max(file, kb(status, "RssFile"));
    } catch {
      // Not started yet, or gone.
    }
  }, 1);
  const code = await new Promise<number | null>((r) => child.on("close", r));
  clearInterval(poll);
  if (code !== 0) throw new Error(`rienda run -a ${agent} failed (${code}): ${stderr}`);
  return { peak: Number(stderr.trim().split("\n").pop()) / 1024, anon: anon / 1024, file: file / 1024 };
}

for (const [agent, label] of [
  ["shell", "a run with one shell call"],
  ["hooked", "same, 3 hooks on both tool points"],
] as const) {
  const samples: Sample[] = [];
  for (let i = 0; i < 10; i++) samples.push(await runOnce(agent));
  const kept = samples.slice(2);
  report(
    `${label}: peak RSS`,
    kept.map((s) => s.peak),
    "MB",
  );
  report(
    `${label}: of it, largest RssFile`,
    kept.map((s) => s.file),
    "MB",
  );
  report(
    `${label}: of it, largest RssAnon`,
    kept.map((s) => s.anon),
    "MB",
  );
}
await server.close();
