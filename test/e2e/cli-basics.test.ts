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

  test("an unknown command close to a real one says which; words after chat flags say how to give a prompt", async () => {
    const typo = await inst.run(["doctr"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe('rienda: unknown command "doctr" (did you mean "doctor"? see rienda --help)\n');
    const words = await inst.run(["-a", "coder", "fix", "the", "tests"]);
    expect(words.code).toBe(1);
    expect(words.stdout).toBe("");
    expect(words.stderr).toBe(
      'rienda: unknown command "fix" (rienda with no command opens the chat, which takes no words; for one run with a prompt: rienda run -a AGENT -p "your prompt")\n',
    );
  });
});
