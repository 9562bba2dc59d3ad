// Runs every bench/*.bench.ts in its own process, one after the other, and prints their figures.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const dir = import.meta.dir;
const bun = resolve(dir, "../node_modules/.bin/bun");
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const r = spawnSync(bun, [join(dir, file)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
