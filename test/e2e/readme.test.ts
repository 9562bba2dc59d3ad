/**
 * The README's "Five minutes", done as a newcomer does it, against the
 * compiled binary: init, the offline run, doctor, the step-2 addition to
 * config.yaml, the coder agent, the word-count tool and the guard hook, each
 * taken from the README as written. The model's side is a replay script
 * (the real provider of step 2 is out of reach offline).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Instance } from "../support/instance.ts";

const README = readFileSync(resolve(import.meta.dir, "../../README.md"), "utf8");
const blocks = (lang: string) =>
  [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
const CLEAN_ENV = {
  OPENAI_API_KEY: undefined,
  ANTHROPIC_API_KEY: undefined,
  OPENROUTER_API_KEY: undefined,
  RIENDA_CONFIG: undefined,
};

/** The js block that follows the README's mention of `path` (its heading line). */
function jsAfter(marker: string): string {
  const at = README.indexOf(marker);
  expect(at).toBeGreaterThan(-1);
  const match = /```js\n([\s\S]*?)```/.exec(README.slice(at));
  return match![1]!;
}

/** One JSON event per stdout line. */
const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("README: five minutes", () => {
  let inst: Instance;
  beforeEach(() => {
    inst = new Instance();
    rmSync(inst.riendaPath(), { recursive: true, force: true });
  });
  afterEach(() => inst.dispose());
  const rienda = (args: string[]) => inst.run(args, { env: CLEAN_ENV });

  /** Pastes `addition` right under `providers:` of ~/.rienda/config.yaml, as step 2 says. */
  function addProviders(addition: string): void {
    const path = inst.riendaPath("config.yaml");
    writeFileSync(path, readFileSync(path, "utf8").replace(/^providers:\n/m, `providers:\n${addition}`));
  }

  /** A replay provider `readme-test/check` playing `turns` (YAML list items). */
  function replayProvider(turns: string): void {
    inst.write(inst.riendaPath("replay/readme-test.yaml"), turns);
    addProviders(
      "  readme-test:\n    protocol: replay\n    script: replay/readme-test.yaml\n    models:\n      check: {}\n",
    );
  }

  test("step 1: init, the offline run and doctor work as shown", async () => {
    const commands = blocks("sh").find((b) => b.startsWith("rienda init"));
    expect(commands).toContain("rienda run -a starter -p hi");
    expect((await rienda(["init"])).code).toBe(0);
    const run = await rienda(["run", "-a", "starter", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("Hello from Rienda!");
    const doctor = await rienda(["doctor"]);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain("healthy");
  });

  test("step 2: the provider snippet pasted under providers: keeps the starter working; the coder agent runs with its tools", async () => {
    await rienda(["init"]);
    addProviders(blocks("yaml")[0]!);
    const starter = await rienda(["run", "-a", "starter", "-p", "hi"]);
    expect(starter.code).toBe(0);
    const doctor = await rienda(["doctor"]);
    expect(doctor.stdout).toContain("OPENROUTER_API_KEY");
    expect(doctor.code).toBe(0);

    inst.agent("coder", blocks("markdown")[0]!);
    inst.file("notes.txt", "one two three\n");
    replayProvider(
      "- tool_calls:\n    - name: word-count\n      arguments: { path: notes.txt }\n- text: notes.txt has 3 words.\n",
    );
    const r = await rienda([
      "run",
      "-a",
      "coder",
      "-m",
      "readme-test/check",
      "-p",
      "count the words in notes.txt",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const results = events(r.stdout).filter((e) => e.type === "tool_result");
    expect(results).toEqual([
      { type: "tool_result", id: expect.any(String), name: "word-count", text: "3", isError: false },
    ]);
    expect(events(r.stdout)[0]).toMatchObject({ type: "run_start", agent: "coder", model: "readme-test/check" });
  });

  test("step 3: the word-count tool counts words, 0 for an empty file", async () => {
    await rienda(["init"]);
    inst.tool("word-count", jsAfter("**3. A first tool.**"));
    inst.file("notes.txt", "  alpha beta\n\ngamma\n");
    inst.file("empty.txt", "");
    const counted = await rienda(["tool", "run", "word-count", "--args", '{"path":"notes.txt"}']);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toBe("3\n");
    const empty = await rienda(["tool", "run", "word-count", "--args", '{"path":"empty.txt"}']);
    expect(empty.stdout).toBe("0\n");
  });

  test("step 4: the guard hook refuses rm -rf in a script, and -y lets it through", async () => {
    await rienda(["init"]);
    inst.hook("guard", jsAfter("**4. A first hook.**"));
    inst.agent("coder", blocks("markdown")[0]!.replace("---\nYou are", "hooks: [guard]\n---\nYou are"));
    inst.file("build/out.txt", "x");
    replayProvider("- tool_calls:\n    - name: shell\n      arguments: { command: rm -rf build }\n- text: Done.\n");
    const refused = await rienda(["run", "-a", "coder", "-m", "readme-test/check", "-p", "clean up"]);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain("tool failed: refused by the user");
    expect(existsSync(join(inst.workspace, "build"))).toBe(true);
    const approved = await rienda(["run", "-y", "-a", "coder", "-m", "readme-test/check", "-p", "clean up"]);
    expect(approved.code).toBe(0);
    expect(existsSync(join(inst.workspace, "build"))).toBe(false);
  });
});
