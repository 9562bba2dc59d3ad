/**
 * `rienda init` on throwaway HOMEs: what it writes, that it never replaces
 * anything, and that what it writes works at once, offline (the starter
 * agent runs on its replay script; the starter tool runs).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { Instance } from "../support/instance.ts";

const EXAMPLES = resolve(import.meta.dir, "../../examples");
const STARTER_FILES = ["config.yaml", "agents/starter.md", "replay/starter.yaml", "tools/word-count/index.js"];
/** No provider key and no config override may leak in from the machine running the tests. */
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined };

describe("rienda init", () => {
  let inst: Instance;
  beforeEach(() => {
    inst = new Instance();
    // Instance prepares ~/.rienda; init must be able to start from nothing.
    rmSync(inst.riendaPath(), { recursive: true, force: true });
  });
  afterEach(() => inst.dispose());

  const init = (env: Record<string, string | undefined> = {}) => inst.run(["init"], { env: { ...CLEAN_ENV, ...env } });

  test("creates ~/.rienda with the starter config, agent, replay script and tool, and says so", async () => {
    const r = await init();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`created ${inst.riendaPath()}/ (private to you: mode 0700)\n`);
    for (const file of STARTER_FILES) {
      expect(r.stdout).toContain(`created ${inst.riendaPath(file)}\n`);
      expect(existsSync(inst.riendaPath(file))).toBe(true);
    }
    expect(r.stdout).toContain("rienda run -a starter -p hi");
    expect(r.stdout).not.toContain("kept");
  });

  test("~/.rienda is private (0700) and config.yaml readable by its owner only (0600)", async () => {
    await init();
    expect(statSync(inst.riendaPath()).mode & 0o777).toBe(0o700);
    expect(statSync(inst.riendaPath("config.yaml")).mode & 0o777).toBe(0o600);
  });

  test("the starter config names the four kinds of provider, keys read from the environment", async () => {
    await init();
    const config = readFileSync(inst.riendaPath("config.yaml"), "utf8");
    expect(config).toContain("protocol: replay");
    expect(config).toContain("preset: ollama");
    expect(config).toContain("preset: openai");
    expect(config).toContain("preset: anthropic");
    expect(config).toContain("api_key: ${OPENAI_API_KEY}");
    expect(config).toContain("api_key: ${ANTHROPIC_API_KEY}");
    expect(config).toMatch(/^# /); // commented for the reader
    const agent = readFileSync(inst.riendaPath("agents/starter.md"), "utf8");
    expect(agent).toContain("model: replay/starter");
  });

  test("the word-count tool it writes is byte for byte examples/tools/word-count/index.js", async () => {
    await init();
    const written = readFileSync(inst.riendaPath("tools/word-count/index.js"), "utf8");
    expect(written).toBe(readFileSync(join(EXAMPLES, "tools/word-count/index.js"), "utf8"));
  });

  test("a second run writes nothing, keeps every file and exits 0", async () => {
    await init();
    const before = STARTER_FILES.map((file) => readFileSync(inst.riendaPath(file), "utf8"));
    const r = await init();
    expect(r.code).toBe(0);
    for (const file of STARTER_FILES)
      expect(r.stdout).toContain(`kept    ${inst.riendaPath(file)} (it already exists; left unchanged)`);
    expect(r.stdout).not.toContain("created");
    expect(r.stdout).toContain("Nothing to write");
    expect(STARTER_FILES.map((file) => readFileSync(inst.riendaPath(file), "utf8"))).toEqual(before);
  });

  test("never overwrites an edited file, and restores only the missing ones", async () => {
    await init();
    writeFileSync(inst.riendaPath("config.yaml"), "providers:\n  mine: { preset: ollama, models: { llama: {} } }\n");
    rmSync(inst.riendaPath("agents/starter.md"));
    const r = await init();
    expect(r.code).toBe(0);
    expect(readFileSync(inst.riendaPath("config.yaml"), "utf8")).toBe(
      "providers:\n  mine: { preset: ollama, models: { llama: {} } }\n",
    );
    expect(r.stdout).toContain(`kept    ${inst.riendaPath("config.yaml")}`);
    expect(r.stdout).toContain(`created ${inst.riendaPath("agents/starter.md")}\n`);
    expect(readFileSync(inst.riendaPath("agents/starter.md"), "utf8")).toContain("model: replay/starter");
  });

  test("leaves an existing ~/.rienda's mode alone and fills it in", async () => {
    mkdirSync(inst.riendaPath("agents"), { recursive: true });
    chmodSync(inst.riendaPath(), 0o750);
    writeFileSync(inst.riendaPath("agents/mine.md"), "---\ndescription: mine\nmodel: x/y\n---\n");
    const r = await init();
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(`created ${inst.riendaPath()}/ (`);
    expect(statSync(inst.riendaPath()).mode & 0o777).toBe(0o750);
    expect(readFileSync(inst.riendaPath("agents/mine.md"), "utf8")).toBe("---\ndescription: mine\nmodel: x/y\n---\n");
    expect(existsSync(inst.riendaPath("agents/starter.md"))).toBe(true);
  });

  test("a symbolic link, even a dangling one, is left in place and not written through", async () => {
    mkdirSync(inst.riendaPath(), { recursive: true });
    const target = join(inst.root, "elsewhere.yaml");
    symlinkSync(target, inst.riendaPath("config.yaml"));
    const r = await init();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`kept    ${inst.riendaPath("config.yaml")}`);
    expect(lstatSync(inst.riendaPath("config.yaml")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(inst.riendaPath("config.yaml"))).toBe(target);
    expect(existsSync(target)).toBe(false);
  });

  test("a file that cannot be written is reported with its path; the others are still written; exit 1", async () => {
    mkdirSync(inst.riendaPath(), { recursive: true });
    writeFileSync(inst.riendaPath("tools"), "not a directory\n");
    const r = await init();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAILED  ${inst.riendaPath("tools/word-count/index.js")}: a parent path is a file, not a directory`,
    );
    expect(r.stdout).toContain(`created ${inst.riendaPath("config.yaml")}\n`);
    expect(r.stderr).toContain("rienda: init: could not write 1 file");
    expect(readFileSync(inst.riendaPath("tools"), "utf8")).toBe("not a directory\n");
  });

  test("~/.rienda being a file is an error naming it, and nothing is written", async () => {
    writeFileSync(inst.riendaPath(), "oops\n");
    const r = await init();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `rienda: ${inst.riendaPath()} exists but is not a directory; move it away and run rienda init again\n`,
    );
    expect(readFileSync(inst.riendaPath(), "utf8")).toBe("oops\n");
  });

  test("unknown options and arguments are refused", async () => {
    const flag = await inst.run(["init", "--force"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("rienda: init: unknown option --force");
    const arg = await inst.run(["init", "now"]);
    expect(arg.code).toBe(1);
    expect(arg.stderr).toContain(`rienda: init: unexpected argument "now"`);
  });

  test("warns when RIENDA_CONFIG points elsewhere, since the written config.yaml would not be read", async () => {
    const r = await init({ RIENDA_CONFIG: "/srv/rienda.yaml" });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `note: RIENDA_CONFIG is set, so rienda reads /srv/rienda.yaml, not ${inst.riendaPath()}/config.yaml\n`,
    );
  });

  test("right after init, the starter agent runs offline with no API key set", async () => {
    await init();
    const r = await inst.run(["run", "-a", "starter", "-p", "hi"], { env: CLEAN_ENV });
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("Hello from Rienda!");
    expect(r.stdout).toContain("replay");
    expect(r.stderr).toMatch(/^session: \S+\n/);
  });

  test("right after init, the word-count tool is installed and runs", async () => {
    await init();
    const list = await inst.run(["tool", "list"], { env: CLEAN_ENV });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("word-count");
    inst.file("notes.txt", "one two  three\nfour\n");
    const r = await inst.run(["tool", "run", "word-count", "--args", '{"path":"notes.txt"}'], { env: CLEAN_ENV });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd()).toBe("4");
    for (const [name, text] of [
      ["empty.txt", ""],
      ["blank.txt", "  \n\t\n"],
    ]) {
      inst.file(name!, text!);
      const empty = await inst.run(["tool", "run", "word-count", "--args", JSON.stringify({ path: name })], {
        env: CLEAN_ENV,
      });
      expect(empty.code).toBe(0);
      expect(empty.stdout).toBe("0\n");
    }
  });
});
