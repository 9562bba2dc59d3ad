import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { sessionFiles } from "../support/session-reader.ts";

let inst: Instance;
beforeEach(() => (inst = new Instance()));
afterEach(() => inst.dispose());

describe("rienda without a terminal", () => {
  for (const args of [[], ["-a", "coder"], ["-c"]]) {
    test(`refuses with a pointer to rienda run and exit 1 (${args.join(" ") || "no flags"})`, async () => {
      const r = await inst.run(args, { stdin: "hello\n" });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        "rienda: interactive chat needs a terminal; use rienda run -a AGENT -p PROMPT (see rienda run --help)\n",
      );
      expect(sessionFiles(inst.home)).toEqual([]);
    });
  }

  test("an unknown flag is named before anything else", async () => {
    const r = await inst.run(["--frobnicate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: unknown option --frobnicate (see rienda --help)\n");
  });

  test("rienda --help lists the chat's flags beside the commands", async () => {
    const r = await inst.run(["--help"]);
    expect(r.code).toBe(0);
    for (const flag of ["--agent", "--continue", "--session", "--model", "--workdir", "--auto-approve", "--config"])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain("run");
  });
});
