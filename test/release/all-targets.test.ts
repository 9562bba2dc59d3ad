/**
 * `make release-check`: every archive `make release` built, checked as far
 * as this machine can. Each one matches SHA256SUMS and holds its
 * executable; linux-x64 and linux-x64-baseline run `--version` natively,
 * linux-arm64 runs it under qemu-user (Debian's qemu-user-static with the
 * arm64 C library of libc6-arm64-cross), and the macOS and Windows ones are
 * checked for their executable format with `file`.
 *
 * Runs only when RIENDA_RELEASE_DIR names the directory of the archives
 * (the Makefile sets it); `make test` skips it, see docs/development.md.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const DIR = process.env.RIENDA_RELEASE_DIR ? resolve(process.env.RIENDA_RELEASE_DIR) : undefined;
const ROOT = resolve(import.meta.dir, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** What `file` says about each target's executable. */
const FORMATS: Record<string, RegExp> = {
  "linux-x64": /ELF 64-bit LSB executable, x86-64/,
  "linux-x64-baseline": /ELF 64-bit LSB executable, x86-64/,
  "linux-arm64": /ELF 64-bit LSB executable, ARM aarch64/,
  "darwin-x64": /Mach-O 64-bit x86_64 executable/,
  "darwin-arm64": /Mach-O 64-bit arm64 executable/,
  "windows-x64": /PE32\+ executable \(console\) x86-64, for MS Windows/,
};

const QEMU = ["qemu-aarch64-static", "qemu-aarch64"].find(
  (name) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0,
);
const ARM64_LIBC = "/usr/aarch64-linux-gnu";
const nativeX64 = process.platform === "linux" && process.arch === "x64";

let unpacked: string;

function unpack(target: string): string {
  const top = `rienda-${VERSION}-${target}`;
  const windows = target.startsWith("windows-");
  const archive = join(DIR!, `${top}.${windows ? "zip" : "tar.gz"}`);
  const exe = `${top}/${windows ? "rienda.exe" : "rienda"}`;
  const r = windows
    ? spawnSync("unzip", ["-q", "-o", archive, exe, "-d", unpacked])
    : spawnSync("tar", ["-xzf", archive, "-C", unpacked, exe]);
  if (r.status !== 0) throw new Error(`cannot unpack ${exe} from ${archive}: ${r.stderr}`);
  return join(unpacked, exe);
}

function versionJson(argv: string[]): Record<string, unknown> {
  const r = spawnSync(argv[0]!, [...argv.slice(1), "version", "--json"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: unpacked },
  });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} version --json failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe.skipIf(DIR === undefined)("every release archive", () => {
  beforeAll(() => (unpacked = mkdtempSync(join(tmpdir(), "rienda-release-check-"))));
  afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

  test("SHA256SUMS lists the six archives and install.sh, and each matches", () => {
    const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: DIR, encoding: "utf8" });
    expect(check.stdout.trim().split("\n").sort()).toEqual(
      [
        ...Object.keys(FORMATS).map((t) => `rienda-${VERSION}-${t}.${t.startsWith("windows-") ? "zip" : "tar.gz"}: OK`),
        "install.sh: OK",
      ].sort(),
    );
    expect(check.status).toBe(0);
  });

  for (const [target, format] of Object.entries(FORMATS)) {
    test(`${target}: the executable is ${format.source.replace(/\\/g, "")}`, () => {
      const r = spawnSync("file", ["-b", unpack(target)], { encoding: "utf8" });
      expect(r.stdout).toMatch(format);
    });
  }

  for (const target of ["linux-x64", "linux-x64-baseline"]) {
    test.skipIf(!nativeX64)(`${target}: runs --version here and names its target`, () => {
      const binary = unpack(target);
      expect(spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout).toBe(`${VERSION}\n`);
      expect(versionJson([binary])).toMatchObject({ version: VERSION, target });
    });
  }

  test.skipIf(QEMU === undefined || !existsSync(ARM64_LIBC))(
    "linux-arm64: runs --version under qemu-user and names its target",
    () => {
      const binary = unpack("linux-arm64");
      const qemu = [QEMU!, "-L", ARM64_LIBC, binary];
      expect(spawnSync(qemu[0]!, [...qemu.slice(1), "--version"], { encoding: "utf8" }).stdout).toBe(`${VERSION}\n`);
      expect(versionJson(qemu)).toMatchObject({ version: VERSION, target: "linux-arm64" });
    },
  );
});
