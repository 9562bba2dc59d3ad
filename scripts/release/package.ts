/**
 * What goes into every archive beside the executable, read from the
 * repository: install.sh at the top, README.md, LICENSE (when the
 * repository has one), docs/ and examples/. In a git checkout only tracked
 * files are taken, so an editor's leftovers never ship.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ArchiveEntry } from "./archive-entry.ts";
import { ROOT } from "./build-info.ts";

const SHIPPED_DIRS = ["docs", "examples"];
const SHIPPED_FILES = ["README.md", "LICENSE"];

/** Repository-relative paths of the files to ship, sorted. */
export function shippedFiles(): string[] {
  const listed = spawnSync("git", ["ls-files", "-z", "--", ...SHIPPED_DIRS], { cwd: ROOT, encoding: "utf8" });
  const inDirs =
    listed.status === 0
      ? listed.stdout.split("\0").filter((path) => path !== "" && existsSync(join(ROOT, path)))
      : SHIPPED_DIRS.flatMap((dir) => walk(dir));
  const top = SHIPPED_FILES.filter((path) => existsSync(join(ROOT, path)));
  return [...top, ...inDirs].sort(byBytes);
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(ROOT, path)).isDirectory() ? walk(path) : [path];
  });
}

/**
 * The archive's entries under `<top>/`: the directory itself, install.sh,
 * the executable, then every shipped file with its parent directories, all
 * in byte order of their paths after the first three.
 */
export function archiveEntries(top: string, executableName: string, executable: Uint8Array): ArchiveEntry[] {
  const files = shippedFiles().map((path) => ({
    path,
    mode: modeOf(join(ROOT, path)),
    data: readFileSync(join(ROOT, path)),
  }));
  const directories = new Set<string>();
  for (const file of files) {
    const parts = file.path.split("/");
    for (let i = 1; i < parts.length; i++) directories.add(`${parts.slice(0, i).join("/")}/`);
  }
  const rest: ArchiveEntry[] = [
    ...[...directories].map((path) => ({ path, mode: 0o755, data: new Uint8Array(0) })),
    ...files,
  ].sort((a, b) => byBytes(a.path, b.path));
  return [
    { path: `${top}/`, mode: 0o755, data: new Uint8Array(0) },
    { path: `${top}/install.sh`, mode: 0o755, data: readFileSync(join(ROOT, "scripts/install.sh")) },
    { path: `${top}/${executableName}`, mode: 0o755, data: executable },
    ...rest.map((entry) => ({ ...entry, path: `${top}/${entry.path}` })),
  ];
}

/** Only the executable bit is kept from the checkout; the umask never reaches the archive. */
function modeOf(path: string): number {
  return statSync(path).mode & 0o100 ? 0o755 : 0o644;
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
