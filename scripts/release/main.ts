/**
 * `make release`: one archive per target in dist/release/, plus SHA256SUMS.
 *
 *   bun scripts/release/main.ts [--targets linux-x64,darwin-arm64] [--out DIR]
 *
 * Each archive is rienda-<version>-<os>-<arch>.tar.gz (.zip for Windows)
 * holding rienda-<version>-<os>-<arch>/ with install.sh, the executable,
 * README.md, LICENSE (when there is one), docs/ and examples/. Built twice
 * from one commit, the archives are identical: the executable is
 * (Bun's output depends only on the sources and the outfile's name), every
 * entry carries the commit's date, owner 0 and a normalised mode, and the
 * order is fixed. install.sh is also put beside the archives, so a mirror
 * or a USB stick holds all it takes (`sh install.sh .`), and SHA256SUMS
 * lists it with the archives this run built, sorted by name.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import pkg from "../../package.json" with { type: "json" };
import { readBuildInfo, ROOT, type BuildInfo } from "./build-info.ts";
import { compile } from "./compile.ts";
import { archiveEntries } from "./package.ts";
import { tarArchive } from "./tar.ts";
import { selectTargets, type Target } from "./targets.ts";
import { zipArchive } from "./zip.ts";

export interface BuiltArchive {
  target: string;
  file: string;
  archiveBytes: number;
  executableBytes: number;
  sha256: string;
}

export function archiveName(target: Target): string {
  return `rienda-${pkg.version}-${target.name}`;
}

/** Builds `targets` into `out` and writes `out`/install.sh and `out`/SHA256SUMS. */
export function release(targets: readonly Target[], out: string, info: BuildInfo = readBuildInfo()): BuiltArchive[] {
  if (info.date === null)
    throw new Error("no date to stamp the archives with: build from a git checkout or set SOURCE_DATE_EPOCH");
  const mtime = Math.floor(Date.parse(info.date) / 1000);
  mkdirSync(out, { recursive: true });
  const built: BuiltArchive[] = [];
  for (const target of targets) {
    const top = archiveName(target);
    const work = join(out, `.build-${target.name}`);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      compile(target, join(work, target.executable), info);
      const executable = readFileSync(join(work, target.executable));
      const entries = archiveEntries(top, target.executable, executable);
      const archive =
        target.archive === "zip" ? zipArchive(entries, mtime) : gzipSync(tarArchive(entries, mtime), { level: 9 });
      const file = `${top}.${target.archive}`;
      writeFileSync(join(out, file), archive);
      const sha256 = sha256Of(archive);
      built.push({
        target: target.name,
        file,
        archiveBytes: archive.length,
        executableBytes: executable.length,
        sha256,
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const installer = readFileSync(join(ROOT, "scripts/install.sh"));
  writeFileSync(join(out, "install.sh"), installer, { mode: 0o755 });
  const listed = [
    ...built.map((b) => ({ file: b.file, sha256: b.sha256 })),
    { file: "install.sh", sha256: sha256Of(installer) },
  ];
  const sums = listed.sort((a, b) => (a.file < b.file ? -1 : 1)).map((entry) => `${entry.sha256}  ${entry.file}\n`);
  writeFileSync(join(out, "SHA256SUMS"), sums.join(""));
  return built;
}

function sha256Of(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

if (import.meta.main) {
  const value = (flag: string) => {
    const at = process.argv.indexOf(flag);
    return at < 0 ? undefined : process.argv[at + 1];
  };
  try {
    const out = resolve(value("--out") ?? join(ROOT, "dist/release"));
    const info = readBuildInfo();
    if (info.dirty)
      process.stderr.write("release: note: tracked files differ from the commit; the build records dirty: true\n");
    const built = release(selectTargets(value("--targets")), out, info);
    for (const b of built) {
      process.stdout.write(
        `${join(out, b.file)}  ${megabytes(b.archiveBytes)} (executable ${megabytes(b.executableBytes)})\n`,
      );
    }
    process.stdout.write(`${join(out, "install.sh")}\n${join(out, "SHA256SUMS")}\n`);
  } catch (error) {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
