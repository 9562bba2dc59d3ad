import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentFile, isValidAgentId, listAgents, loadAgent, toAgentInfo } from "../../src/agents/index.ts";
import { RiendaError } from "../../src/errors.ts";

const root = mkdtempSync(join(tmpdir(), "rienda-agents-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(root, "home-"));
  mkdirSync(join(dir, ".rienda", "agents"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, ".rienda", "agents", name), text);
  return dir;
}

const agent = (description: string, model = "openai/gpt-4o") =>
  `---\ndescription: ${description}\nmodel: ${model}\n---\nPrompt of ${description}.\n`;

describe("isValidAgentId", () => {
  test("accepts plain file names, including dots and spaces (as the Go version did)", () => {
    for (const id of ["coder", "code-review", "my_agent", "v1.2", "Code Reviewer", "ñandú"])
      expect(isValidAgentId(id)).toBe(true);
  });

  test("refuses empty, hidden, path-like, control-character and .md-suffixed ids", () => {
    for (const id of ["", ".hidden", "..", "a/b", "a\\b", "../etc/passwd", "x.md", "a\nb", "a\u0000b"])
      expect(isValidAgentId(id)).toBe(false);
  });
});

describe("loadAgent", () => {
  test("loads ~/.rienda/agents/<id>.md of the given home", () => {
    const h = home({ "coder.md": agent("Writes code") });
    const loaded = loadAgent(h, "coder");
    expect(loaded.id).toBe("coder");
    expect(loaded.file).toBe(agentFile(h, "coder"));
    expect(loaded.systemPrompt).toBe("Prompt of Writes code.");
  });

  test("an unknown agent lists the available ones", () => {
    const h = home({ "coder.md": agent("a"), "reviewer.md": agent("b") });
    expect(() => loadAgent(h, "writer")).toThrow('unknown agent "writer" (available: coder, reviewer)');
  });

  test("the list of available agents names broken files apart, as not loading", () => {
    const h = home({ "coder.md": agent("a"), "broken.md": "no frontmatter" });
    expect(() => loadAgent(h, "writer")).toThrow(
      'unknown agent "writer" (available: coder; not loading: broken, see "rienda doctor")',
    );
  });

  test("a mistyped agent gets the closest name, broken ones included", () => {
    const h = home({ "coder.md": agent("a"), "reviewer.md": agent("b"), "writer.md": "no frontmatter" });
    expect(() => loadAgent(h, "reveiwer")).toThrow(
      'unknown agent "reveiwer" (did you mean "reviewer"? available: coder, reviewer; not loading: writer, see "rienda doctor")',
    );
    expect(() => loadAgent(h, "witer")).toThrow(
      'unknown agent "witer" (did you mean "writer"? available: coder, reviewer;',
    );
    expect(() => loadAgent(h, "planner")).toThrow('unknown agent "planner" (available: coder, reviewer;');
  });

  test("with no agents at all, says where to create one", () => {
    const h = home();
    const dir = join(h, ".rienda", "agents");
    let message = "";
    try {
      loadAgent(h, "coder");
    } catch (error) {
      expect(error).toBeInstanceOf(RiendaError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      `unknown agent "coder": there are no agents in ${dir} yet. Create ${dir}/coder.md (see docs/agents.md), or run "rienda init" for an example agent`,
    );
  });

  test("a missing agents directory is the same as an empty one", () => {
    const h = mkdtempSync(join(root, "bare-"));
    expect(() => loadAgent(h, "coder")).toThrow('unknown agent "coder": there are no agents in');
  });

  test("an invalid id is refused before touching the disk", () => {
    const h = home();
    expect(() => loadAgent(h, "../secrets")).toThrow('invalid agent id "../secrets"');
  });

  test("a broken definition is a RiendaError naming its file", () => {
    const h = home({ "coder.md": "---\nmodel: p/m\n---\n" });
    expect(() => loadAgent(h, "coder")).toThrow(`${agentFile(h, "coder")}: missing "description"`);
  });

  test("a directory named like an agent is named as such", () => {
    const h = home();
    mkdirSync(join(h, ".rienda", "agents", "coder.md"));
    expect(() => loadAgent(h, "coder")).toThrow(`${agentFile(h, "coder")}: is a directory, not an agent file`);
  });
});

describe("listAgents", () => {
  test("lists good agents sorted by id and broken ones as problems, never hiding the others", () => {
    const h = home({
      "zeta.md": agent("z"),
      "alpha.md": agent("a"),
      "broken.md": "---\ndescription: d\nmodel: nope\n---\n",
      "notes.txt": "ignored",
      ".hidden.md": "ignored",
    });
    const { agents, problems } = listAgents(h);
    expect(agents.map((a) => a.id)).toEqual(["alpha", "zeta"]);
    expect(problems).toEqual([
      {
        id: "broken",
        file: agentFile(h, "broken"),
        message: `${agentFile(h, "broken")}: model: must have the form provider/alias (got "nope")`,
      },
    ]);
  });

  test("follows symbolic links and reports broken ones", () => {
    const h = home();
    const elsewhere = join(h, "dotfiles-agent.md");
    writeFileSync(elsewhere, agent("linked"));
    symlinkSync(elsewhere, join(h, ".rienda", "agents", "linked.md"));
    symlinkSync(join(h, "gone.md"), join(h, ".rienda", "agents", "dangling.md"));
    const { agents, problems } = listAgents(h);
    expect(agents.map((a) => a.id)).toEqual(["linked"]);
    expect(problems.map((p) => p.message)).toEqual([`${agentFile(h, "dangling")}: is a broken symbolic link`]);
  });

  test("skips directories and reports files whose name is not a valid id", () => {
    const h = home({ "x.md.md": agent("x") });
    mkdirSync(join(h, ".rienda", "agents", "dir.md"));
    const { agents, problems } = listAgents(h);
    expect(agents).toEqual([]);
    expect(problems.map((p) => p.id)).toEqual(["x.md"]);
    expect(problems[0]?.message).toContain('"x.md" is not a valid agent id');
  });

  test("a missing agents directory is an empty list", () => {
    expect(listAgents(mkdtempSync(join(root, "none-")))).toEqual({ agents: [], problems: [] });
  });

  test("an agents path that is a file is a problem, not a crash", () => {
    const h = mkdtempSync(join(root, "file-"));
    mkdirSync(join(h, ".rienda"));
    writeFileSync(join(h, ".rienda", "agents"), "");
    const { agents, problems } = listAgents(h);
    expect(agents).toEqual([]);
    expect(problems[0]?.message).toStartWith(`${join(h, ".rienda", "agents")}: cannot be listed`);
  });
});

describe("toAgentInfo", () => {
  test("is ctx.agent: the id as name, the whole frontmatter and the system prompt", () => {
    const h = home({
      "coder.md":
        "---\ndescription: d\nmodel: p/m\ntools: [shell]\nhooks: [guard]\nconfig: { shell: { timeout: 5 } }\n---\nBe brief.\n",
    });
    expect(toAgentInfo(loadAgent(h, "coder"))).toEqual({
      name: "coder",
      description: "d",
      model: "p/m",
      tools: ["shell"],
      hooks: ["guard"],
      skills: [],
      agents: [],
      config: { shell: { timeout: 5 } },
      systemPrompt: "Be brief.",
    });
  });

  test("is a deep copy: changing it leaves the agent alone", () => {
    const h = home({
      "coder.md": "---\ndescription: d\nmodel: p/m\ntools: [shell]\nconfig: { shell: { timeout: 5 } }\n---\n",
    });
    const loaded = loadAgent(h, "coder");
    const info = toAgentInfo(loaded);
    info.tools.push("x");
    (info.config.shell as Record<string, unknown>).timeout = 1;
    expect(loaded.tools).toEqual(["shell"]);
    expect(loaded.config.shell).toEqual({ timeout: 5 });
  });

  test("is JSON data", () => {
    const h = home({ "coder.md": GOOD_JSON });
    const info = toAgentInfo(loadAgent(h, "coder"));
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });
});

const GOOD_JSON =
  "---\ndescription: d\nmodel: p/m\nconfig: { x: { list: [1, two], nested: { ok: true } } }\n---\nbody\n";

describe("files that exist but cannot be read", () => {
  test("loadAgent names the file of a symbolic link loop", () => {
    const h = home();
    const file = agentFile(h, "loop");
    symlinkSync(file, file);
    expect(() => loadAgent(h, "loop")).toThrow(`${file}: cannot be read: `);
  });

  test("listAgents reports a symbolic link loop as a problem and keeps the rest", () => {
    const h = home({ "ok.md": agent("fine") });
    const file = agentFile(h, "loop");
    symlinkSync(file, file);
    const { agents, problems } = listAgents(h);
    expect(agents.map((a) => a.id)).toEqual(["ok"]);
    expect(problems.map((p) => p.id)).toEqual(["loop"]);
    expect(problems[0]?.message).toStartWith(`${file}: cannot be read: `);
  });

  test("an unknown agent when every agent file is broken points to rienda doctor", () => {
    const h = home({ "broken.md": "nothing" });
    expect(() => loadAgent(h, "coder")).toThrow(
      `unknown agent "coder" (no agent in ${join(h, ".rienda", "agents")} loads; not loading: broken, see "rienda doctor")`,
    );
  });
});
