import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Instance } from "../support/instance.ts";

const pkg = JSON.parse(readFileSync(resolve(import.meta.dir, "../../package.json"), "utf8")) as { version: string };

describe("the command line", () => {
  let inst: Instance;
  beforeEach(() => (inst = new Instance()));
  afterEach(() => inst.dispose());

  test("--version prints the version from package.json", async () => {
    const r = await inst.run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  test("--help prints usage on stdout and exits 0", async () => {
    const r = await inst.run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("rienda");
    expect(r.stdout).toContain("USAGE");
  });

  test("an unknown command is named on stderr with exit 1", async () => {
    const r = await inst.run(["frobnicate"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith('rienda: unknown command "frobnicate"');
  });
});
