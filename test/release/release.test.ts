/**
 * `make release` for one target (linux-x64, the machine the tests run on):
 * the archive holds what docs/install.md promises, two builds of one tree
 * are the same bytes, and scripts/install.sh installs it with the network
 * unreachable (a user and network namespace with only loopback, `unshare
 * -rn`, where the machine allows one), after which the installed binary
 * runs the demo offline. The other five targets are built by `make release`
 * and checked by `make release-check` (test/release/all-targets.test.ts),
 * which is not part of `make test`: docs/development.md says why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const BUN = join(ROOT, "node_modules/.bin/bun");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const NAME = `rienda-${VERSION}-linux-x64`;
const ARCHIVE = `${NAME}.tar.gz`;
/** Whether this machine lets an unprivileged process take a network namespace of its own. */
const CAN_ISOLATE = spawnSync("unshare", ["-rn", "true"]).status === 0;
const onLinuxX64 = process.platform === "linux" && process.arch === "x64";
/** install.sh takes the baseline archive on a CPU without AVX2; the tests build only linux-x64. */
const HAS_AVX2 = onLinuxX64 && readFileSync("/proc/cpuinfo", "utf8").includes(" avx2");

/** The archive's line of SHA256SUMS in `dir`. */
function archiveSum(dir: string): string {
  const line = readFileSync(join(dir, "SHA256SUMS"), "utf8")
    .split("\n")
    .find((l) => l.endsWith(`  ${ARCHIVE}`));
  return line!.split(" ")[0]!;
}

let work: string;
let first: string;

function release(out: string): SpawnSyncReturns<string> {
  return spawnSync(BUN, [join(ROOT, "scripts/release/main.ts"), "--targets", "linux-x64", "--out", out], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

/** Runs `argv` with only loopback for a network where the machine allows it. */
function offline(argv: string[], env: Record<string, string>, cwd = work): SpawnSyncReturns<string> {
  const command = CAN_ISOLATE ? ["unshare", "-rn", ...argv] : argv;
  const base = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", NO_COLOR: "1", TMPDIR: join(work, "tmp") };
  return spawnSync(command[0]!, command.slice(1), { cwd, env: { ...base, ...env }, encoding: "utf8" });
}

function install(args: string[], home: string): SpawnSyncReturns<string> {
  return offline(["sh", join(ROOT, "scripts/install.sh"), ...args], { HOME: home });
}

function git(args: string[]): string {
  return spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout.trim();
}

describe.skipIf(!onLinuxX64)("release archive for linux-x64", () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "rienda-release-"));
    mkdirSync(join(work, "tmp"));
    first = join(work, "first");
    const built = release(first);
    if (built.status !== 0) throw new Error(`release build failed: ${built.stderr}`);
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test("SHA256SUMS lists the archive and install.sh, in sha256sum's format; install.sh is the repository's", () => {
    const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: first, encoding: "utf8" });
    expect(check.stdout).toBe(`install.sh: OK\n${ARCHIVE}: OK\n`);
    expect(readFileSync(join(first, "SHA256SUMS"), "utf8")).toMatch(
      new RegExp(`^[0-9a-f]{64}  install\\.sh\n[0-9a-f]{64}  ${ARCHIVE.replace(/\./g, "\\.")}\n$`),
    );
    expect(readdirSync(first).sort()).toEqual(["SHA256SUMS", "install.sh", ARCHIVE]);
    expect(readFileSync(join(first, "install.sh"), "utf8")).toBe(
      readFileSync(join(ROOT, "scripts/install.sh"), "utf8"),
    );
  });

  test("holds install.sh at the top, the binary, README, docs/ and examples/, owned by 0 and dated by the commit", () => {
    const listing = spawnSync("tar", ["--numeric-owner", "--utc", "-tvzf", join(first, ARCHIVE)], { encoding: "utf8" })
      .stdout.trim()
      .split("\n");
    const paths = listing.map((line) => line.split(/\s+/).slice(5).join(" "));
    expect(paths.slice(0, 4)).toEqual([`${NAME}/`, `${NAME}/install.sh`, `${NAME}/rienda`, `${NAME}/README.md`]);
    expect(paths).toContain(`${NAME}/docs/install.md`);
    expect(paths).toContain(`${NAME}/examples/agents/demo.md`);
    expect(paths).toContain(`${NAME}/examples/tools/word-count/index.js`);
    expect(paths.every((path) => path.startsWith(`${NAME}/`))).toBe(true);
    // Only tracked files: the archive ships what the commit holds.
    const tracked = git(["ls-files", "docs", "examples"]).split("\n");
    expect(
      paths
        .filter((path) => !path.endsWith("/") && /\/(docs|examples)\//.test(path))
        .map((path) => path.slice(NAME.length + 1)),
    ).toEqual([...tracked].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(paths.includes(`${NAME}/LICENSE`)).toBe(existsSync(join(ROOT, "LICENSE")));
    const day = new Date(Number(git(["log", "-1", "--format=%ct"])) * 1000)
      .toISOString()
      .slice(0, 16)
      .replace("T", " ");
    for (const line of listing) expect(line).toContain(` 0/0 `);
    for (const line of listing) expect(line).toContain(day);
    expect(listing[1]).toStartWith("-rwxr-xr-x");
    expect(listing[2]).toStartWith("-rwxr-xr-x");
    expect(listing[3]).toStartWith("-rw-r--r--");
  });

  test("two builds of the same tree give identical archives and SHA256SUMS", () => {
    const second = join(work, "second");
    const built = release(second);
    expect(built.stderr).not.toContain("failed");
    expect(built.status).toBe(0);
    expect(readFileSync(join(second, ARCHIVE)).equals(readFileSync(join(first, ARCHIVE)))).toBe(true);
    expect(readFileSync(join(second, "SHA256SUMS"), "utf8")).toBe(readFileSync(join(first, "SHA256SUMS"), "utf8"));
    rmSync(second, { recursive: true, force: true });
  }, 180_000);

  test.skipIf(!CAN_ISOLATE)("the install tests run where the network is unreachable: only loopback", () => {
    const devices = offline(["cat", "/proc/net/dev"], {});
    const names = devices.stdout
      .split("\n")
      .slice(2)
      .map((line) => line.split(":")[0]!.trim())
      .filter(Boolean);
    expect(names).toEqual(["lo"]);
  });

  test("install.sh ARCHIVE checks it against SHA256SUMS beside it, installs ~/.local/bin/rienda, which names its build", () => {
    const home = join(work, "home-archive");
    mkdirSync(home);
    const r = install([join(first, ARCHIVE)], home);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const sum = archiveSum(first);
    expect(r.stdout).toContain(`checked  ${ARCHIVE} (sha256 ${sum})\n`);
    expect(r.stdout).toContain(`installed rienda ${VERSION} to ${home}/.local/bin/rienda\n`);
    expect(r.stdout).toContain(`note: ${home}/.local/bin is not on your PATH`);
    expect(readdirSync(home, { recursive: true }).sort()).toEqual([".local", ".local/bin", ".local/bin/rienda"]);

    const binary = join(home, ".local/bin/rienda");
    const version = offline([binary, "--version"], { HOME: home });
    expect(version.stdout).toBe(`${VERSION}\n`);
    const report = JSON.parse(offline([binary, "version", "--json"], { HOME: home }).stdout) as Record<string, unknown>;
    expect(report).toEqual({
      version: VERSION,
      commit: git(["rev-parse", "HEAD"]),
      dirty: git(["status", "--porcelain", "--untracked-files=no"]) !== "",
      date: new Date(Number(git(["log", "-1", "--format=%ct"])) * 1000).toISOString().replace(".000Z", "Z"),
      target: "linux-x64",
      bun: spawnSync(BUN, ["--version"], { encoding: "utf8" }).stdout.trim(),
    });
    expect(offline([binary, "--version", "--json"], { HOME: home }).stdout).toBe(`${JSON.stringify(report)}\n`);
  });

  test("the installed binary runs the demo with no network: tools, hooks and the answer", () => {
    const home = join(work, "home-demo");
    mkdirSync(home);
    expect(install([join(first, ARCHIVE)], home).status).toBe(0);
    // The examples come from the archive, as a user without the repository has them.
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    expect(spawnSync("tar", ["-xzf", join(first, ARCHIVE), "-C", unpacked]).status).toBe(0);
    const r = offline(["sh", join(ROOT, "scripts/demo.sh")], {
      HOME: home,
      RIENDA_BINARY: join(home, ".local/bin/rienda"),
      RIENDA_EXAMPLES: join(unpacked, NAME, "examples"),
    });
    expect(r.stderr).not.toContain("rienda: internal");
    expect(r.stdout).toContain('notes.txt has 37 words and describes version "2.4.1" of lighthouse.');
    expect(r.stderr).toContain('tool: word-count {"path":"notes.txt"}');
    expect(r.stderr).toContain("tool failed: refused by the user");
    expect(r.stderr).toContain("notice: redact: removed 1 secret from the model's answer\n");
    expect(r.stdout).toEndWith("demo: rienda run exited with status 0\n");
    expect(r.status).toBe(0);
  });

  test("install.sh DIRECTORY takes this machine's archive from the directory's SHA256SUMS; --prefix sets where", () => {
    const home = join(work, "home-dir");
    mkdirSync(home);
    const prefix = join(work, "opt");
    // As from a USB stick: the install.sh that sits beside the archives, run there.
    const r = offline(
      ["sh", "./install.sh", ...(HAS_AVX2 ? [] : ["--target", "linux-x64"]), "--prefix", prefix, "."],
      { HOME: home },
      first,
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`installed rienda ${VERSION} to ${prefix}/bin/rienda\n`);
    expect(offline([join(prefix, "bin/rienda"), "--version"], { HOME: home }).stdout).toBe(`${VERSION}\n`);
    expect(readdirSync(home)).toEqual([]);
  });

  test("an upgrade replaces the installed binary in place", () => {
    const home = join(work, "home-upgrade");
    mkdirSync(join(home, ".local/bin"), { recursive: true });
    writeFileSync(join(home, ".local/bin/rienda"), "#!/bin/sh\necho old\n", { mode: 0o755 });
    const r = install([join(first, ARCHIVE)], home);
    expect(r.status).toBe(0);
    expect(offline([join(home, ".local/bin/rienda"), "--version"], { HOME: home }).stdout).toBe(`${VERSION}\n`);
    expect(readdirSync(join(home, ".local/bin"))).toEqual(["rienda"]);
  });

  test("a damaged archive is refused with both checksums, and nothing is written", () => {
    const mirror = join(work, "damaged");
    mkdirSync(mirror);
    copyFileSync(join(first, "SHA256SUMS"), join(mirror, "SHA256SUMS"));
    const bytes = readFileSync(join(first, ARCHIVE));
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(join(mirror, ARCHIVE), bytes);
    const home = join(work, "home-damaged");
    mkdirSync(home);
    const before = readdirSync(join(work, "tmp"));
    for (const source of [join(mirror, ARCHIVE), mirror]) {
      const r = install([source], home);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`install.sh: checksum mismatch for ${join(mirror, ARCHIVE)}\n`);
      expect(r.stderr).toContain(`  expected ${archiveSum(first)}\n`);
      expect(r.stderr).toMatch(/ {2}actual {3}[0-9a-f]{64}\n/);
      expect(r.stderr).toContain("refusing to install: the archive is damaged or not the one published");
      expect(r.stdout).toBe("");
      expect(readdirSync(home)).toEqual([]);
      expect(readdirSync(join(work, "tmp"))).toEqual(before);
    }
    // A checksum given on the command line is held to the same rule.
    const given = install(["--sha256", "0".repeat(64), join(first, ARCHIVE)], home);
    expect(given.status).toBe(1);
    expect(given.stderr).toContain(`  expected ${"0".repeat(64)}\n`);
    expect(readdirSync(home)).toEqual([]);
  });

  test("an archive with nothing to check it against is refused, and says how to give a checksum", () => {
    const lone = join(work, "lone");
    mkdirSync(lone);
    copyFileSync(join(first, ARCHIVE), join(lone, ARCHIVE));
    const home = join(work, "home-lone");
    mkdirSync(home);
    const r = install([join(lone, ARCHIVE)], home);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `install.sh: nothing to check ${ARCHIVE} against: put SHA256SUMS next to it, or pass --sha256 HEX (from the release page)\n`,
    );
    expect(readdirSync(home)).toEqual([]);
    // With the right checksum given, it installs.
    const sum = archiveSum(first);
    const ok = install(["--sha256", sum.toUpperCase(), join(lone, ARCHIVE)], home);
    expect(ok.status).toBe(0);
    expect(existsSync(join(home, ".local/bin/rienda"))).toBe(true);
  });

  test("a directory without this platform's archive, or without SHA256SUMS, is refused by name", () => {
    const home = join(work, "home-missing");
    mkdirSync(home);
    const other = install(["--target", "darwin-arm64", first], home);
    expect(other.status).toBe(1);
    expect(other.stderr).toBe(
      `install.sh: SHA256SUMS in ${first} lists no archive for darwin-arm64 (rienda-<version>-darwin-arm64.tar.gz)\n`,
    );
    const empty = join(work, "empty");
    mkdirSync(empty);
    const none = install([empty], home);
    expect(none.status).toBe(1);
    expect(none.stderr).toBe(
      `install.sh: no SHA256SUMS in ${empty}: copy it along with the archives (it is how they are checked)\n`,
    );
    expect(readdirSync(home)).toEqual([]);
  });

  test("another platform's archive is refused once unpacked: its executable does not run here; nothing is installed", () => {
    // A stand-in for a macOS archive: a checksummed archive whose rienda is not a Linux executable.
    const mirror = join(work, "foreign");
    const top = `rienda-${VERSION}-darwin-arm64`;
    mkdirSync(join(mirror, top), { recursive: true });
    writeFileSync(join(mirror, top, "rienda"), Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01]), {
      mode: 0o755,
    });
    expect(spawnSync("tar", ["-czf", `${top}.tar.gz`, top], { cwd: mirror }).status).toBe(0);
    rmSync(join(mirror, top), { recursive: true });
    const sum = spawnSync("sha256sum", [`${top}.tar.gz`], { cwd: mirror, encoding: "utf8" }).stdout;
    writeFileSync(join(mirror, "SHA256SUMS"), sum);
    const home = join(work, "home-foreign");
    mkdirSync(home);
    const r = install(["--target", "darwin-arm64", mirror], home);
    expect(r.status).toBe(1);
    expect(r.stdout).toStartWith(`checked  ${top}.tar.gz`);
    expect(r.stderr).toBe(
      `install.sh: the rienda in ${top}.tar.gz does not run on this machine (${spawnSync("uname", ["-sm"], { encoding: "utf8" }).stdout.trim()}): take the archive for linux-x64${HAS_AVX2 ? "" : "-baseline"} (docs/install.md)\n`,
    );
    expect(readdirSync(home)).toEqual([]);
  });

  test("usage errors exit 2 and print the usage", () => {
    const r = install(["--prefix"], join(work, "nowhere"));
    expect(r.status).toBe(2);
    expect(r.stderr).toStartWith(
      "usage: sh install.sh [--prefix DIR] [--sha256 HEX] [--target NAME] ARCHIVE|DIRECTORY\n",
    );
  });
});
