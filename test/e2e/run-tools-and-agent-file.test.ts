/**
 * Which tools a run offers (--tools, --no-tools), an agent given as a file
 * (--agent-file), and run_end's tool counts (docs/cli.md).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";

setDefaultTimeout(30_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

type Event = Record<string, unknown> & { type: string };
const runEnd = (stdout: string): Event => JSON.parse(stdout.trim().split("\n").at(-1)!) as Event;
const toolNames = (index: number): string[] =>
  ((s!.server.requests[index]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
    (t) => t.function.name,
  );

const WORDS = `module.exports = {
  description: "counts words",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute(ctx, args) { return String(args.text.split(/\\s+/).length); },
};
`;

describe("--tools and --no-tools", () => {
  test("--tools offers only the named tools; a call to another one is an unknown tool", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, words]" });
    s.inst.tool("words", WORDS);
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--tools", "words", "--json"]);
    expect(r.code).toBe(0);
    expect(toolNames(0)).toEqual(["words"]);
    const result = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Event)
      .find((e) => e.type === "tool_result")!;
    expect(result).toMatchObject({ name: "shell", isError: true, text: 'unknown tool "shell"' });
    expect(runEnd(r.stdout).tools).toEqual({ calls: 1, failed: 1, refused: 0 });
  });

  test("--no-tools offers none", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, words]" });
    s.inst.tool("words", WORDS);
    s.server.script({ text: "no tools" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--no-tools"]);
    expect(r.code).toBe(0);
    expect(toolNames(0)).toEqual([]);
  });

  test("a name the agent does not have fails before any request, listing its tools", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell, words]" });
    s.inst.tool("words", WORDS);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--tools", "shell,wrods"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: --tools: the agent has no tool "wrods" (did you mean words?); its tools: shell, words (${s.inst.riendaPath("agents", "coder.md")})`,
    );
    expect(s.server.requests).toHaveLength(0);
    const both = await s.inst.run(["run", "-a", "coder", "-p", "go", "--tools", "shell", "--no-tools"]);
    expect(both.stderr).toContain("rienda: run: give --tools or --no-tools, not both");
  });

  test("hooks still run with --no-tools", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [note]" });
    s.inst.hook("note", `module.exports = { beforeRun(ctx) { ctx.file.write("ran.txt", "yes"); } };\n`);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--no-tools"]);
    expect(r.code).toBe(0);
    expect(await Bun.file(`${s.inst.workspace}/ran.txt`).text()).toBe("yes");
  });
});

describe("run_end.tools", () => {
  test("counts calls, failed results and calls a hook refused", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]\nhooks: [guard]" });
    s.inst.hook(
      "guard",
      `module.exports = { beforeToolExecute(ctx, call) { if (call.arguments.command.includes("rm")) return { allow: false, reason: "no deleting" }; } };\n`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "echo ok" } },
          { id: "c2", name: "shell", arguments: { command: "exit 3" } },
          { id: "c3", name: "shell", arguments: { command: "rm -rf x" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    expect(runEnd(r.stdout)).toMatchObject({ reason: "end_turn", tools: { calls: 3, failed: 2, refused: 1 } });
  });

  test("a run without tool calls has zero counts", async () => {
    s = await scenario();
    s.server.script({ text: "hi" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(runEnd(r.stdout).tools).toEqual({ calls: 0, failed: 0, refused: 0 });
  });
});

describe("--agent-file", () => {
  const CI_AGENT = "---\ndescription: The CI reviewer.\nmodel: p/m\ntools: [shell]\n---\nYou review pull requests.\n";

  test("runs the agent of a file in the repository; its tools still come from ~/.rienda", async () => {
    s = await scenario();
    s.inst.file(".ci/reviewer.md", CI_AGENT);
    s.server.script({ text: "looks good" });
    const r = await s.inst.run(["run", "--agent-file", ".ci/reviewer.md", "-p", "review", "--json"]);
    expect(r.code).toBe(0);
    const start = JSON.parse(r.stdout.split("\n")[0]!) as Event;
    expect(start).toMatchObject({ type: "run_start", agent: "reviewer" });
    const body = s.server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages[0]!.content).toBe("You review pull requests.");
    expect(toolNames(0)).toEqual(["shell"]);
  });

  test("a tool the file names must exist in ~/.rienda: the workspace is never read for tools", async () => {
    s = await scenario();
    s.inst.file(".ci/reviewer.md", CI_AGENT.replace("tools: [shell]", "tools: [lint]"));
    s.inst.file(".rienda/tools/lint/index.js", WORDS);
    const r = await s.inst.run(["run", "--agent-file", ".ci/reviewer.md", "-p", "review"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "lint"');
    expect(s.server.requests).toHaveLength(0);
  });

  test("a missing or broken file, or -a as well, fails naming the problem", async () => {
    s = await scenario();
    const missing = await s.inst.run(["run", "--agent-file", "nope.md", "-p", "x"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`rienda: ${s.inst.workspace}/nope.md: no such agent file (--agent-file)`);
    s.inst.file("bad.md", "---\nmodel: p/m\n---\n");
    const broken = await s.inst.run(["run", "--agent-file", "bad.md", "-p", "x"]);
    expect(broken.stderr).toContain(`${s.inst.workspace}/bad.md: missing "description"`);
    s.inst.file("ok.md", CI_AGENT);
    const both = await s.inst.run(["run", "--agent-file", "ok.md", "-a", "coder", "-p", "x"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("rienda: run: give -a/--agent or --agent-file, not both");
    expect(s.server.requests).toHaveLength(0);
  });
});
