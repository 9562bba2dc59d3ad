/**
 * The release's tar and zip writers, read back by the system's tar and
 * unzip: what goes in comes out, with the modes, owner and date given, and
 * the same entries give the same bytes.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArchiveEntry } from "../../scripts/release/archive-entry.ts";
import { tarArchive } from "../../scripts/release/tar.ts";
import { crc32, zipArchive } from "../../scripts/release/zip.ts";

const text = (s: string) => new TextEncoder().encode(s);
const MTIME = Date.UTC(2026, 10, 30, 6, 57, 14) / 1000;
const longDir = `top/${"nested-directory-name/".repeat(5)}`;
const ENTRIES: ArchiveEntry[] = [
  { path: "top/", mode: 0o755, data: new Uint8Array(0) },
  { path: "top/run.sh", mode: 0o755, data: text("#!/bin/sh\necho hi\n") },
  { path: "top/notes é.md", mode: 0o644, data: text("ünïcode\n") },
  { path: "top/empty.txt", mode: 0o644, data: new Uint8Array(0) },
  { path: longDir, mode: 0o755, data: new Uint8Array(0) },
  { path: `${longDir}deep-file-name-that-makes-the-path-long.txt`, mode: 0o644, data: text("x".repeat(1500)) },
];

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rienda-archive-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: dir, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

describe("tarArchive", () => {
  test("GNU tar lists every entry with owner 0, the given mode and date, in the given order", () => {
    writeFileSync(join(dir, "a.tar"), tarArchive(ENTRIES, MTIME));
    const listing = run("tar", ["--numeric-owner", "--utc", "-tvf", "a.tar"]).trim().split("\n");
    expect(listing.map((line) => line.split(/\s+/).slice(5).join(" "))).toEqual(ENTRIES.map((e) => e.path));
    expect(listing[1]).toMatch(/^-rwxr-xr-x 0\/0 +18 2026-11-30 06:57 top\/run\.sh$/);
    expect(listing[2]).toStartWith("-rw-r--r-- 0/0");
    expect(listing[0]).toStartWith("drwxr-xr-x 0/0");
  });

  test("the files come out with their content, long paths included", () => {
    writeFileSync(join(dir, "a.tar"), tarArchive(ENTRIES, MTIME));
    run("tar", ["-xf", "a.tar"]);
    expect(readFileSync(join(dir, "top/run.sh"), "utf8")).toBe("#!/bin/sh\necho hi\n");
    expect(readFileSync(join(dir, "top/notes é.md"), "utf8")).toBe("ünïcode\n");
    expect(readFileSync(join(dir, ENTRIES[5]!.path), "utf8")).toBe("x".repeat(1500));
    expect(statSync(join(dir, "top/run.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, "top/run.sh")).mtimeMs).toBe(MTIME * 1000);
  });

  test("the same entries make the same bytes", () => {
    expect(Buffer.from(tarArchive(ENTRIES, MTIME)).equals(Buffer.from(tarArchive(ENTRIES, MTIME)))).toBe(true);
  });

  test("a path that fits neither ustar field is refused, not cut", () => {
    expect(() => tarArchive([{ path: `top/${"x".repeat(120)}`, mode: 0o644, data: new Uint8Array(0) }], MTIME)).toThrow(
      "path too long",
    );
  });
});

describe("zipArchive", () => {
  test("unzip finds no error and lists every entry with its mode and date", () => {
    writeFileSync(join(dir, "a.zip"), zipArchive(ENTRIES, MTIME));
    expect(run("unzip", ["-t", "a.zip"])).toContain("No errors detected");
    const listing = run("zipinfo", ["a.zip"]);
    expect(listing).toContain(`-rwxr-xr-x  2.0 unx       18 b- defN 26-Nov-30 06:57 top/run.sh`);
    expect(listing).toMatch(/drwxr-xr-x .* stor 26-Nov-30 06:57 top\/\n/);
  });

  test("the files come out with their content", () => {
    writeFileSync(join(dir, "a.zip"), zipArchive(ENTRIES, MTIME));
    run("unzip", ["-q", "a.zip"]);
    expect(readFileSync(join(dir, "top/notes é.md"), "utf8")).toBe("ünïcode\n");
    expect(readFileSync(join(dir, ENTRIES[5]!.path), "utf8")).toBe("x".repeat(1500));
    expect(readFileSync(join(dir, "top/empty.txt"), "utf8")).toBe("");
  });

  test("the same entries make the same bytes", () => {
    expect(Buffer.from(zipArchive(ENTRIES, MTIME)).equals(Buffer.from(zipArchive(ENTRIES, MTIME)))).toBe(true);
  });

  test("crc32 gives the standard check value", () => {
    expect(crc32(text("123456789"))).toBe(0xcbf43926);
  });
});
