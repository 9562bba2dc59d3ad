/**
 * The blocks of the documentation that show what Rienda prints, each
 * produced again by the compiled binary and compared with the page: a block
 * marked `<!-- checked by test/e2e/docs-outputs.test.ts: NAME -->` in a
 * document is checked by the test naming NAME here. Paths are written as
 * the pages write them (HOME /home/ana, workspace /home/ana/project),
 * session ids as `01k…`. test/docs/output-blocks.test.ts makes sure no
 * output block goes unmarked.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { blocksOf, markedBlock, matchesShown } from "../support/doc-blocks.ts";
import { BINARY, Instance, type RunResult } from "../support/instance.ts";

const ME = "test/e2e/docs-outputs.test.ts";
const EXAMPLES = resolve(import.meta.dir, "../../examples");
/** No key, config override or time zone may leak in from the machine running the tests. */
const CLEAN_ENV = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, RIENDA_CONFIG: undefined, TZ: "UTC" };

let inst: Instance;
beforeEach(() => {
  inst = new Instance();
});
afterEach(() => inst.dispose());

/** `text` with this instance's paths written as the pages write them. */
function asDocumented(text: string): string {
  return text
    .replaceAll(join(inst.home, "project"), "/home/ana/project")
    .replaceAll(inst.workspace, "/home/ana/project")
    .replaceAll(inst.home, "/home/ana");
}

/** Runs the binary with stderr and stdout on one pipe, in the order they were written, as a terminal shows them. */
function together(
  args: string[],
  cwd = inst.workspace,
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const child = spawn("sh", ["-c", 'exec "$0" "$@" 2>&1', BINARY, ...args], {
    cwd,
    env: inst.env({ ...CLEAN_ENV, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr: "" })));
}

const rienda = (args: string[], env: Record<string, string | undefined> = {}) =>
  inst.run(args, { env: { ...CLEAN_ENV, ...env } });

/** Asserts that `actual` (after path rewriting) is what the block shows. */
function expectShown(actual: string, shown: string): void {
  const documented = asDocumented(actual);
  if (!matchesShown(documented, shown)) expect(documented).toBe(shown);
}

/** The lines of a block, each to be found in some output. */
const linesOf = (block: string) => block.trimEnd().split("\n");

/** The first ```lang block of `doc` after the line containing `after`. */
function blockAfter(doc: string, lang: string, after: string): string {
  const text = readFileSync(resolve(import.meta.dir, "../..", doc), "utf8");
  const at = text.indexOf(after);
  if (at === -1) throw new Error(`${doc} no longer contains ${JSON.stringify(after)}`);
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(text.slice(at));
  return match![1]!;
}

const CONFIG_EXAMPLE = blockAfter("docs/config.md", "yaml", "## A complete example");
const TOOL = (description: string) =>
  `module.exports = { description: ${JSON.stringify(description)}, parameters: { type: "object", properties: {} }, execute() { return "ok"; } };\n`;

describe("docs/getting-started.md", () => {
  const DOC = "docs/getting-started.md";
  beforeEach(() => rmSync(inst.riendaPath(), { recursive: true, force: true }));

  test("init", async () => {
    const r = await together(["init"]);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock(DOC, ME, "init"));
  });

  test("starter", async () => {
    await rienda(["init"]);
    const r = await together(["run", "-a", "starter", "-p", "hi"]);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock(DOC, ME, "starter"));
  });

  test("unset-key", async () => {
    await rienda(["init"]);
    inst.file("fox.txt", "The quick brown fox jumps over the lazy dog.\n");
    const r = await rienda(["run", "-a", "starter", "-m", "openai/gpt-4o", "-p", "How many words are in fox.txt?"]);
    expect(r.code).toBe(1);
    expectShown(r.stderr, markedBlock(DOC, ME, "unset-key"));
  });

  test("the git-branch tool prints the branch and nothing else", async () => {
    await rienda(["init"]);
    inst.tool("git-branch", blockAfter(DOC, "js", "## 3. A first tool"));
    execFileSync("git", ["init", "-q", "-b", "topic-x"], { cwd: inst.workspace });
    const list = await rienda(["tool", "list"]);
    expect(list.stdout).toContain("git-branch\n    Returns the name of the git branch checked out in the workspace.");
    const r = await rienda(["tool", "run", "git-branch"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("topic-x\n");
  });

  test("guard-demo", async () => {
    await rienda(["init"]);
    inst.hook("guard", blockAfter(DOC, "js", "## 4. A first hook"));
    const agent = inst.riendaPath("agents/starter.md");
    const tools = blockAfter(DOC, "yaml", "Turn it on in");
    writeFileSync(agent, readFileSync(agent, "utf8").replace(/^tools:\n( {2}- .*\n)+/m, tools));
    inst.write(inst.riendaPath("replay/guard.yaml"), blockAfter(DOC, "yaml", "Write `~/.rienda/replay/guard.yaml`"));
    const config = inst.riendaPath("config.yaml");
    writeFileSync(
      config,
      readFileSync(config, "utf8").replace(
        /^providers:\n/m,
        `providers:\n${blockAfter(DOC, "yaml", "and add a provider for it")}`,
      ),
    );
    const demo = join(inst.root, "guard-demo");
    mkdirSync(join(demo, "build"), { recursive: true });
    const r = await together(["run", "-a", "starter", "-m", "guard-test/check", "-p", "clean up"], demo);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock(DOC, ME, "guard-demo"));
    expect(existsSync(join(demo, "build"))).toBe(true);
  });
});

describe("docs/agents.md", () => {
  const DOC = "docs/agents.md";
  const CONFIG = "providers:\n  openai:\n    preset: openai\n    api_key: k\n    models: { gpt-4o: {}, o3: {} }\n";
  beforeEach(() => {
    inst.config(CONFIG);
    inst.tool("word-count", TOOL("Counts words."));
  });

  test("agents-unknown-tool", async () => {
    const [ghost, typo] = linesOf(markedBlock(DOC, ME, "agents-unknown-tool"));
    inst.agent("coder", "---\ndescription: d\nmodel: openai/gpt-4o\ntools: [shell, ghost]\n---\n");
    expect((await rienda(["run", "-a", "coder", "-p", "x"])).stderr).toBe(`${ghost}\n`);
    inst.tool("half", "module.exports = { description: 'half' };\n");
    inst.agent("coder", "---\ndescription: d\nmodel: openai/gpt-4o\ntools: [wrod-count]\n---\n");
    expect((await rienda(["run", "-a", "coder", "-p", "x"])).stderr).toBe(`${typo}\n`);
  });

  test("agents-errors", async () => {
    inst.agent("coder", "---\ndescription: Writes code.\nmodel: gpt-4o\ntemperature: 0.2\n---\n");
    const r = await rienda(["run", "-a", "coder", "-p", "x"]);
    expectShown(r.stderr, markedBlock(DOC, ME, "agents-errors"));
  });

  test("agents-unknown-agent", async () => {
    inst.agent("coder", "---\ndescription: d\nmodel: openai/gpt-4o\n---\n");
    inst.agent("reviewer", "---\ndescription: d\nmodel: openai/gpt-4o\n---\n");
    expectShown(
      (await rienda(["run", "-a", "writer", "-p", "x"])).stderr,
      markedBlock(DOC, ME, "agents-unknown-agent"),
    );
  });

  test("agents-unknown-model", async () => {
    inst.agent("coder", "---\ndescription: d\nmodel: openai/gpt-5\n---\n");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, markedBlock(DOC, ME, "agents-unknown-model"));
  });
});

describe("docs/cli.md", () => {
  test("cli-doctor-problem", async () => {
    inst.config("providers:\n  r:\n    protocol: replay\n    script: replay/x.yaml\n    models: { m: {} }\n");
    inst.write(inst.riendaPath("replay/x.yaml"), "- hi\n");
    inst.tool("word-count", TOOL("Counts words."));
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\ntools: [shell, ghost]\n---\n");
    const r = await rienda(["doctor"]);
    expect(asDocumented(r.stdout)).toContain(markedBlock("docs/cli.md", ME, "cli-doctor-problem"));
  });
});

describe("docs/config.md", () => {
  const DOC = "docs/config.md";
  const agent = (model: string) => inst.agent("coder", `---\ndescription: d\nmodel: ${model}\n---\n`);

  test("config-missing", async () => {
    agent("openai/gpt-4o");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, markedBlock(DOC, ME, "config-missing"));
  });

  test("config-unknown-model", async () => {
    inst.config(CONFIG_EXAMPLE);
    agent("openai/gpt-4o");
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
    const [provider, model] = linesOf(markedBlock(DOC, ME, "config-unknown-model"));
    expect((await rienda(["run", "-a", "coder", "-m", "opena/gpt-4o", "-p", "x"], env)).stderr).toBe(
      `${asDocumentedLine(provider!)}\n`,
    );
    expect((await rienda(["run", "-a", "coder", "-m", "openai/gpt-5", "-p", "x"], env)).stderr).toBe(`${model}\n`);
  });

  test("config-unset-key", async () => {
    inst.config(CONFIG_EXAMPLE);
    agent("openai/gpt-4o");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, markedBlock(DOC, ME, "config-unset-key"));
  });

  test("config-invalid", async () => {
    inst.config(
      CONFIG_EXAMPLE.replace("        temperature: 0.2\n", "        temperature: 3\n").replace(
        "        context_window: 131072\n",
        "        context_window: 131072\n    modles: {}\n",
      ),
    );
    agent("openai/gpt-4o");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, markedBlock(DOC, ME, "config-invalid"));
  });

  test("config-duplicate", async () => {
    inst.config(
      "providers:\n  local:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:8080/v1\n    models: { m: {} }\n    protocol: openai_chat_completions\n",
    );
    agent("local/m");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, markedBlock(DOC, ME, "config-duplicate"));
  });

  /** A documented line with the page's home written as this instance's. */
  function asDocumentedLine(line: string): string {
    return line.replaceAll("/home/ana", inst.home);
  }
});

describe("docs/hooks.md", () => {
  const DOC = "docs/hooks.md";
  const REPLAY = "providers:\n  r:\n    protocol: replay\n    script: replay/x.yaml\n    models: { m: {} }\n";

  test("hooks-unknown", async () => {
    const [typo, broken] = linesOf(markedBlock(DOC, ME, "hooks-unknown"));
    inst.config(REPLAY);
    inst.write(inst.riendaPath("replay/x.yaml"), "- text: hello\n");
    for (const name of ["date", "guard", "redact"]) inst.hook(name, "module.exports = { beforeRun() {} };\n");
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\nhooks: [gaurd]\n---\n");
    expect((await rienda(["run", "-a", "coder", "-p", "x"])).stderr).toBe(`${typo}\n`);
    inst.hook("guard", "module.exports = {\n  beforeToolExecute(ctx, call) {\n");
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\nhooks: [guard]\n---\n");
    expectShown((await rienda(["run", "-a", "coder", "-p", "x"])).stderr, `${broken}\n`);
  });

  test("hooks-failures", async () => {
    inst.config(REPLAY);
    inst.write(inst.riendaPath("replay/x.yaml"), "- text: hello\n");
    // A redact hook with a slip (response.txt for response.text), and a date hook returning a number.
    inst.hook(
      "redact",
      "module.exports = { afterModelResponse(ctx, response) { return { text: response.txt.replace(/x/g, 'y') }; } };\n",
    );
    inst.hook("date", "module.exports = { beforeModelRequest() { return { system: 42 }; } };\n");
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\nhooks: [redact, date]\n---\n");
    const r = await rienda(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const shown = linesOf(markedBlock(DOC, ME, "hooks-failures"));
    const printed = r.stderr.split("\n");
    for (const line of shown) expect(printed).toContain(line);
  });
});

describe("docs/tools.md", () => {
  test("tools-missing-package", async () => {
    inst.config("providers:\n  r:\n    protocol: replay\n    script: x.yaml\n    models: { m: {} }\n");
    inst.write(inst.riendaPath("x.yaml"), "- hi\n");
    inst.tool(
      "slug",
      'const slugify = require("slugify");\nmodule.exports = { description: "d", parameters: { type: "object" }, execute(ctx, args) { return slugify(args.text); } };\n',
    );
    const r = await rienda(["doctor"]);
    expect(asDocumented(r.stdout)).toContain(markedBlock("docs/tools.md", ME, "tools-missing-package"));
  });
});

describe("docs/mcp.md", () => {
  test("mcp-unknown-key", async () => {
    inst.config(
      "providers:\n  r:\n    protocol: replay\n    script: x.yaml\n    models: { m: {} }\nmcp_servers:\n  files:\n    command: npx\n    argz: []\n",
    );
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\n---\n");
    expectShown(
      (await rienda(["run", "-a", "coder", "-p", "x"])).stderr,
      markedBlock("docs/mcp.md", ME, "mcp-unknown-key"),
    );
  });

  test("mcp-token-file-open", async () => {
    const file = inst.write(inst.riendaPath("mcp-token"), "A".repeat(43) + "\n");
    chmodSync(file, 0o644);
    const r = await inst.run(["mcp", "serve", "--http", "127.0.0.1:0"], { env: CLEAN_ENV, killAfterMs: 20_000 });
    expect(r.code).toBe(1);
    expectShown(r.stderr, markedBlock("docs/mcp.md", ME, "mcp-token-file-open"));
  });
});

describe("docs/sessions.md", () => {
  test("sessions-table", async () => {
    const header = (id: string, agent: string, model: string, at: string) =>
      JSON.stringify({ kind: "header", version: 1, id, createdAt: at, agent, model, workdir: inst.workspace });
    const message = (
      id: string,
      parent: string | null,
      at: string,
      role: string,
      text: string,
      extra: Record<string, unknown> = {},
    ) =>
      JSON.stringify({
        kind: "message",
        id,
        parentId: parent,
        createdAt: at,
        role,
        blocks: [{ type: "text", text }],
        ...extra,
      });
    // The directory is found by the hash of the workspace's path: let a run create it, then fill it by hand.
    inst.config("providers:\n  r:\n    protocol: replay\n    script: x.yaml\n    models: { m: {} }\n");
    inst.write(inst.riendaPath("x.yaml"), "- hi\n");
    inst.agent("coder", "---\ndescription: d\nmodel: r/m\n---\n");
    await rienda(["run", "-a", "coder", "-p", "x"]);
    const real = execFileSync("sh", ["-c", `ls -d ${JSON.stringify(inst.riendaPath("sessions"))}/*/`], {
      encoding: "utf8",
    }).trim();
    rmSync(real, { recursive: true });
    mkdirSync(real, { recursive: true });
    writeFileSync(
      join(real, "01jq0000000000000000000001.jsonl"),
      [
        header("01jq0000000000000000000001", "coder", "local/llama", "2025-03-01T08:00:00Z"),
        message("a", null, "2025-03-01T08:00:00Z", "user", "Fix the parser"),
        message("b", "a", "2025-03-01T09:00:00Z", "assistant", "Done.", {
          responseUsage: { inputTokens: 812, outputTokens: 44 },
        }),
      ].join("\n") + "\n",
    );
    writeFileSync(
      join(real, "01jq0000000000000000000002.jsonl"),
      [
        header("01jq0000000000000000000002", "writer", "openai/gpt-4o", "2025-03-02T09:00:00Z"),
        message("c", null, "2025-03-02T09:00:00Z", "user", "Draft the notes"),
        message("d", "c", "2025-03-02T09:01:00Z", "assistant", "Drafted.", {
          responseUsage: { inputTokens: 48000, outputTokens: 1204 },
          responseCost: 0.042,
        }),
        JSON.stringify({ kind: "title", createdAt: "2025-03-02T09:02:00Z", title: "Release notes" }),
        message("e", "d", "2025-03-05T12:30:00Z", "user", "Shorter, please"),
      ].join("\n") + "\n",
    );
    const r = await rienda(["sessions"]);
    const shown = markedBlock("docs/sessions.md", ME, "sessions-table");
    expect(`$ rienda sessions\n${r.stdout}`).toBe(shown);
  });

  for (const [name, flags] of [
    ["sessions-show-tree", ["--tree"]],
    ["sessions-show", []],
  ] as const) {
    test(name, async () => {
      const go = resolve(import.meta.dir, "../fixtures/sessions/go-branched.jsonl");
      expect((await rienda(["sessions", "import", go])).code).toBe(0);
      const r = await rienda(["sessions", "show", "01jq3v8m6w2k4x9c7b5pv3q2fm", ...flags]);
      expect(
        asDocumented(
          `$ rienda sessions show 01jq3v8m6w2k4x9c7b5pv3q2fm${flags.map((f) => ` ${f}`).join("")}\n${r.stdout}`,
        ),
      ).toBe(markedBlock("docs/sessions.md", ME, name));
    });
  }
});

describe("docs/skills.md", () => {
  const DOC = "docs/skills.md";
  const skill = (folder: string, name: string, description: string) =>
    inst.write(
      inst.riendaPath("skills", folder, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`,
    );
  beforeEach(() => {
    inst.config("providers:\n  r:\n    protocol: replay\n    script: x.yaml\n    models: { m: {} }\n");
    inst.write(inst.riendaPath("x.yaml"), "- hi\n");
    skill("brand-guidelines", "brand-guidelines", "Our colours and fonts.");
    skill("release-notes", "release-notes", "Writes release notes.");
  });

  test("skills-unknown", async () => {
    inst.agent("writer", "---\ndescription: d\nmodel: r/m\nskills: [pdf]\n---\n");
    expectShown((await rienda(["run", "-a", "writer", "-p", "x"])).stderr, markedBlock(DOC, ME, "skills-unknown"));
  });

  test("skills-doctor", async () => {
    skill("pdf", "pdf-tools", "Reads PDF files.");
    inst.agent("writer", "---\ndescription: d\nmodel: r/m\nskills: [release-notes, ghost]\n---\n");
    const r = await rienda(["doctor"]);
    expect(asDocumented(r.stdout)).toContain(markedBlock(DOC, ME, "skills-doctor"));
  });
});

/** examples/ installed as scripts/demo.sh installs it, with the workspace the demo uses. */
function installExamples(): void {
  for (const dir of ["agents", "tools", "hooks", "replay", "skills"])
    cpSync(join(EXAMPLES, dir), inst.riendaPath(dir), { recursive: true });
  inst.config(
    readFileSync(join(EXAMPLES, "config.yaml"), "utf8").replace(
      /^( {4}script:) (\S+).*$/gm,
      (_, key: string, path: string) => `${key} ${JSON.stringify(inst.riendaPath(path))}`,
    ),
  );
  cpSync(join(EXAMPLES, "workspace"), inst.workspace, { recursive: true });
  inst.file(".cache/build.log", "stale build output\n");
}

describe("the examples (docs/examples.md, docs/skills.md)", () => {
  test("examples-demo", async () => {
    installExamples();
    const r = await together([
      "run",
      "-a",
      "demo",
      "-p",
      "Check the release notes: how long are they, which version do they describe, and clear the build cache.",
    ]);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock("docs/examples.md", ME, "examples-demo"));
  });

  test("examples-skills and skills-run", async () => {
    installExamples();
    const r = await together(["run", "-a", "writer", "-p", "Write the release notes of this version."]);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock("docs/examples.md", ME, "examples-skills"));
    const shown = markedBlock("docs/skills.md", ME, "skills-run");
    const [command, ...rest] = shown.split("\n");
    expect(command).toBe('$ rienda run -a writer -p "Write the release notes of this version."');
    expectShown(r.stdout, rest.join("\n"));
  });

  test("examples-subagents and subagents-run (docs/subagents.md)", async () => {
    installExamples();
    const r = await together(["run", "-a", "lead", "-p", "Get the release notes reviewed before we tag 2.4.1."]);
    expect(r.code).toBe(0);
    expectShown(r.stdout, markedBlock("docs/examples.md", ME, "examples-subagents"));
    const [command, ...rest] = markedBlock("docs/subagents.md", ME, "subagents-run").split("\n");
    expect(command).toBe('$ rienda run -a lead -p "Get the release notes reviewed before we tag 2.4.1."');
    expectShown(r.stdout, rest.join("\n"));
  });
});

test("the pages still have the blocks this file checks", () => {
  const names = new Set(
    [
      "README.md",
      "docs/agents.md",
      "docs/cli.md",
      "docs/tools.md",
      "docs/config.md",
      "docs/examples.md",
      "docs/getting-started.md",
      "docs/hooks.md",
      "docs/mcp.md",
      "docs/sessions.md",
      "docs/skills.md",
      "docs/subagents.md",
    ].flatMap((doc) =>
      blocksOf(doc).flatMap((b) => (b.marker?.kind === "checked" && b.marker.test === ME ? [b.marker.name] : [])),
    ),
  );
  expect(names.size).toBeGreaterThanOrEqual(20);
});
