// Wall time and peak RSS of `rienda --version` and `rienda tool run` of a trivial tool, next to a compiled hello world built in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
const bun = join(root, "node_modules/.bin/bun");
const work = mkdtempSync(join(tmpdir(), "rienda-bench-"));
const hello = join(work, "hello");
writeFileSync(join(work, "hello.ts"), 'console.log("hello");\n');
const build = spawnSync(
  bun,
  ["build", "--compile", "--minify", "--bytecode", "--format=esm", join(work, "hello.ts"), "--outfile", hello],
  { encoding: "utf8" },
);
if (build.status !== 0) throw new Error(build.stderr);
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);

const home = join(work, "home");
mkdirSync(join(home, ".rienda/tools/trivial"), { recursive: true });
writeFileSync(
  join(home, ".rienda/tools/trivial/index.js"),
  'module.exports = { description: "d", parameters: { type: "object" }, execute() { return "ok"; } };',
);
const env = { PATH: process.env.PATH ?? "", HOME: home };
const hasTime = existsSync("/usr/bin/time");

function sample(command: string[], runs: number): { wall: number[]; rss: number[] } {
  const wall: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const argv = hasTime ? ["/usr/bin/time", "-f", "%M", ...command] : command;
    const t = performance.now();
    const r = spawnSync(argv[0]!, argv.slice(1), { env, cwd: work, encoding: "utf8" });
    wall.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${command.join(" ")} failed: ${r.stderr}`);
    if (hasTime) rss.push(Number(r.stderr.trim().split("\n").pop()) / 1024);
  }
  return { wall: wall.slice(2), rss: rss.slice(2) };
}

for (const [name, command] of [
  ["compiled hello world", [hello]],
  ["rienda --version", [binary, "--version"]],
  ["rienda tool run trivial", [binary, "tool", "run", "trivial"]],
] as const) {
  const { wall, rss } = sample([...command], 30);
  report(`${name}: wall time`, wall, "ms");
  if (rss.length > 0) report(`${name}: peak RSS`, rss, "MB");
}
