/**
 * `rienda --version`, `rienda version` and their --json form: the version,
 * and the build the binary comes from (the commit it was built from, that
 * commit's date, the target and the Bun inside), so a bug report can name
 * the exact build. The binary under test is built from this checkout.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Instance } from "../support/instance.ts";

const ROOT = resolve(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { version: string };

function git(args: string[]): string {
  return spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout.trim();
}

describe("rienda version", () => {
  let inst: Instance;
  beforeEach(() => (inst = new Instance()));
  afterEach(() => inst.dispose());

  test("version --json names the commit, its date (not the build's), the target and Bun", async () => {
    const r = await inst.run(["version", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith("}\n")).toBe(true);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(["version", "commit", "dirty", "date", "target", "bun"]);
    expect(report.version).toBe(pkg.version);
    expect(report.commit).toBe(git(["rev-parse", "HEAD"]));
    expect(report.date).toBe(
      new Date(Number(git(["log", "-1", "--format=%ct"])) * 1000).toISOString().replace(".000Z", "Z"),
    );
    expect(typeof report.dirty).toBe("boolean");
    expect(report.target).toBe(`${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`);
    expect(report.bun).toBe(
      spawnSync(resolve(ROOT, "node_modules/.bin/bun"), ["--version"], { encoding: "utf8" }).stdout.trim(),
    );
  });

  test("--version --json and -v --json print the same object; --version alone only the version", async () => {
    const json = (await inst.run(["version", "--json"])).stdout;
    expect((await inst.run(["--version", "--json"])).stdout).toBe(json);
    expect((await inst.run(["--json", "-v"])).stdout).toBe(json);
    expect((await inst.run(["--version"])).stdout).toBe(`${pkg.version}\n`);
    expect((await inst.run(["-v"])).stdout).toBe(`${pkg.version}\n`);
  });

  test("version without --json prints the same facts, one per line", async () => {
    const report = JSON.parse((await inst.run(["version", "--json"])).stdout) as Record<string, string | boolean>;
    const r = await inst.run(["version"]);
    expect(r.code).toBe(0);
    const dirty = report.dirty ? " (with uncommitted changes)" : "";
    expect(r.stdout).toBe(
      `rienda ${pkg.version}\ncommit  ${report.commit}${dirty}\ndate    ${report.date}\ntarget  ${report.target}\nbun     ${report.bun}\n`,
    );
  });

  test("an unknown flag or an extra argument is a usage error", async () => {
    const flag = await inst.run(["version", "--jsn"]);
    expect(flag.code).toBe(1);
    expect(flag.stdout).toBe("");
    expect(flag.stderr).toContain("--jsn");
    const extra = await inst.run(["version", "now"]);
    expect(extra.code).toBe(1);
    expect(extra.stderr).toBe('rienda: version: unexpected argument "now" (see rienda version --help)\n');
  });
});
