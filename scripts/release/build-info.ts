/**
 * What a build records about itself (`rienda version --json`): the commit,
 * the commit's date (never the clock, so two builds of one commit are the
 * same bytes) and the Bun that compiled it, which is also the runtime the
 * executable carries. SOURCE_DATE_EPOCH, where set, overrides the date
 * (reproducible-builds.org); outside a git checkout the commit is null.
 *
 *   bun scripts/release/build-info.ts --write dist/build-info.json
 *     rewrites the file only when its content changes, so make rebuilds
 *     the binary after a commit and not otherwise.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

export interface BuildInfo {
  /** Full commit id, or null outside a git checkout. */
  commit: string | null;
  /** True when tracked files differ from the commit. */
  dirty: boolean;
  /** The commit's date, ISO 8601 in UTC (second precision), or null when unknown. */
  date: string | null;
  /** The Bun version that compiled the executable (and that it runs on). */
  bun: string;
}

export const ROOT = resolve(import.meta.dir, "../..");

function git(args: string[]): string | undefined {
  const result = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

export function readBuildInfo(): BuildInfo {
  const commit = git(["rev-parse", "--verify", "HEAD"]) ?? null;
  const dirty = commit !== null && (git(["status", "--porcelain", "--untracked-files=no"]) ?? "") !== "";
  const epoch = process.env.SOURCE_DATE_EPOCH ?? (commit ? git(["log", "-1", "--format=%ct", commit]) : undefined);
  const seconds = epoch !== undefined && /^\d+$/.test(epoch) ? Number(epoch) : undefined;
  const date = seconds === undefined ? null : new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
  return { commit, dirty, date, bun: Bun.version };
}

if (import.meta.main) {
  const at = process.argv.indexOf("--write");
  const text = `${JSON.stringify(readBuildInfo())}\n`;
  if (at < 0 || !process.argv[at + 1]) {
    process.stdout.write(text);
  } else {
    const file = process.argv[at + 1]!;
    if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
}
