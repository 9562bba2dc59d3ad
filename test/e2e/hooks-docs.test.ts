/** The examples of docs/hooks.md, installed as written and run against a scripted model. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scenario, systemOf, toolResultsOf, type Scenario } from "../support/scenario.ts";

const DOC = readFileSync(resolve(import.meta.dir, "../../docs/hooks.md"), "utf8");

/** name -> source of every `// ~/.rienda/hooks/<name>/index.js` block. */
const EXAMPLES = new Map(
  [...DOC.matchAll(/```js\n\/\/ ~\/\.rienda\/hooks\/([\w-]+)\/index\.js\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]),
);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

async function withHooks(names: string[], frontmatter = ""): Promise<Scenario> {
  const sc = await scenario({ agentFrontmatter: `tools: [shell]\nhooks: [${names.join(", ")}]${frontmatter}` });
  for (const name of names) sc.inst.hook(name, EXAMPLES.get(name)!);
  return sc;
}

describe("docs/hooks.md examples", () => {
  test("the page has the examples the tests expect", () => {
    expect([...EXAMPLES.keys()].sort()).toEqual(["audit", "date", "guard", "redact", "shorten", "stay-home"]);
  });

  test("guard refuses rm -rf in a script and notifies at the end", async () => {
    s = await withHooks(["guard"]);
    s.server.script(
      { toolCalls: [{ id: "c", name: "shell", arguments: { command: "rm -rf build" } }] },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["refused by the user"]);
    expect(r.stderr).toContain("rienda: run finished: end_turn");
  });

  test("date adds today's date to the system prompt of every turn", async () => {
    s = await withHooks(["date"]);
    s.server.script({ toolCalls: [{ id: "c", name: "shell", arguments: { command: "true" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const today = new Date().toISOString().slice(0, 10);
    for (const request of s.server.requests)
      expect(systemOf(request)).toBe(`You are a test agent.\n\nToday's date is ${today}.`);
  });

  test("redact removes keys from the printed answer", async () => {
    s = await withHooks(["redact"]);
    s.server.script({ text: "use sk-live_ABCDEFGH1234 and AKIAABCDEFGHIJKLMNOP" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("use [redacted] and [redacted]\n");
  });

  test("stay-home forces the workdir and refuses non-JSON arguments", async () => {
    s = await withHooks(["stay-home"]);
    s.inst.file("sub/.keep", "");
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "shell", arguments: { command: "pwd", workdir: "sub" } },
          { id: "b", name: "shell", rawArguments: "pwd please" },
        ],
      },
      { text: "ok" },
    );
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const [first, second] = toolResultsOf(s.server.requests[1]!);
    expect(first!.trim()).toBe(s.inst.workspace);
    expect(second).toContain("must be a JSON object");
  });

  test("shorten keeps the first and last lines, with the limit from the agent's config", async () => {
    s = await withHooks(["shorten"], "\nconfig:\n  shorten: { lines: 4 }");
    s.server.script({ toolCalls: [{ id: "a", name: "shell", arguments: { command: "seq 1 10" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["1\n2\n[6 lines cut]\n9\n10"]);
  });

  test("audit appends one line per tool call", async () => {
    s = await withHooks(["audit"]);
    s.server.script({ toolCalls: [{ id: "a", name: "shell", arguments: { command: "exit 2" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const log = join(s.inst.home, ".rienda/audit.log");
    expect(existsSync(log)).toBe(true);
    const line = JSON.parse(readFileSync(log, "utf8").trim());
    expect(line).toMatchObject({ tool: "shell", arguments: { command: "exit 2" }, isError: true });
  });
});
