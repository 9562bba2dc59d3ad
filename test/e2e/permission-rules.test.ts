/**
 * Issue 43: permission rules on tool calls, in config.yaml and agent
 * frontmatter, checked before the beforeToolExecute hooks. `shell` patterns
 * match the words of each command after a real shell word split; `deny`
 * refuses (a tool error result naming the rule, counted in
 * `run_end.tools.refused`), `ask` asks as `ctx.confirm` does (refused in a
 * script without -y), an `allow` list asks about the rest. Wrappers defeat
 * patterns, as docs/security.md says: those tests pin that down.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcDriver } from "../support/rpc-driver.ts";
import { schemaErrors, validOutput } from "../support/rpc-schema.ts";
import { jsonEvents, scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Runs each command through the shell tool, one call per command, under `rules` (YAML of `permissions:`); what the model read and the events. */
async function underRules(commands: string[], rules: { config?: string; frontmatter?: string }, args: string[] = []) {
  s = await scenario({
    agentFrontmatter: `tools: [shell]${rules.frontmatter ? `\n${rules.frontmatter}` : ""}`,
    ...(rules.config ? { configExtra: rules.config } : {}),
  });
  for (const name of ["a", "b", "c"]) s.inst.file(name, name);
  s.server.script(
    { toolCalls: commands.map((command, i) => ({ id: `c${i}`, name: "shell", arguments: { command } })) },
    { text: "done" },
  );
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json", ...args]);
  const second = s.server.requests[1];
  const events = r.stdout.trim() === "" ? [] : jsonEvents(r.stdout);
  return { ...r, results: second ? toolResultsOf(second) : [], events, end: events.at(-1) };
}

const left = (name: string) => existsSync(join(s!.inst.workspace, name));

describe("deny", () => {
  test("a prefix of the words refuses the call, whatever the spacing and flags after; the result names the rule and its file", async () => {
    const r = await underRules(["rm  -f a", "rm -f -- b"], { config: 'permissions:\n  shell:\n    deny: ["rm -f"]' });
    expect(r.code).toBe(0);
    expect(left("a")).toBe(true);
    expect(left("b")).toBe(true);
    const configPath = s!.inst.riendaPath("config.yaml");
    expect(r.results[0]).toBe(
      `refused by the permission rule deny shell "rm -f" (${configPath}): do not retry this another way; ask the user`,
    );
    expect(r.end).toMatchObject({ type: "run_end", tools: { calls: 2, failed: 2, refused: 2 } });
    expect(r.events.filter((e) => e.type === "permission")).toEqual([
      {
        type: "permission",
        id: "c0",
        name: "shell",
        outcome: "refused",
        rule: `deny shell "rm -f" (${configPath})`,
        message: r.results[0]!,
      },
      {
        type: "permission",
        id: "c1",
        name: "shell",
        outcome: "refused",
        rule: `deny shell "rm -f" (${configPath})`,
        message: r.results[1]!,
      },
    ]);
  });

  test("words, not text: `echo rm -f a` runs, a quoted rm is still rm, and a command later in the line or in $(...) is checked", async () => {
    const r = await underRules(["echo rm -f a", "'rm' \"-f\" a", "echo ok && rm -f b", "echo $(rm -f c)"], {
      config: 'permissions:\n  shell:\n    deny: ["rm -f"]',
    });
    expect(r.results[0]).toBe("rm -f a");
    expect(r.results.slice(1).every((t) => t.startsWith("refused by the permission rule deny shell"))).toBe(true);
    expect([left("a"), left("b"), left("c")]).toEqual([true, true, true]);
    expect(r.end).toMatchObject({ tools: { calls: 4, refused: 3 } });
  });

  test("wrappers defeat patterns (documented: rules are not the boundary): sh -c, env and xargs run what deny names", async () => {
    const r = await underRules(["sh -c 'rm -f a'", "env rm -f b", "echo c | xargs rm -f"], {
      config: 'permissions:\n  shell:\n    deny: ["rm -f"]',
    });
    expect([left("a"), left("b"), left("c")]).toEqual([false, false, false]);
    expect(r.end).toMatchObject({ tools: { calls: 3, refused: 0 } });
  });

  test("deny wins over a longer allow, and the agent's rules apply beside config.yaml's", async () => {
    const r = await underRules(["rm -f a", "touch made"], {
      config: 'permissions:\n  shell:\n    allow: ["rm -f a"]',
      frontmatter: 'permissions:\n  shell:\n    deny: [rm, "touch made"]',
    });
    expect(left("a")).toBe(true);
    expect(left("made")).toBe(false);
    expect(r.results.every((t) => t.includes("coder.md"))).toBe(true);
  });

  test("the hooks never see a denied call", async () => {
    s = await scenario({ agentFrontmatter: 'tools: [shell]\nhooks: [rec]\npermissions:\n  shell:\n    deny: ["rm"]' });
    s.inst.hook(
      "rec",
      `module.exports = { beforeToolExecute(ctx, call) { ctx.file.write("seen.log", call.arguments.command + "\\n", { append: true }); } };`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "c0", name: "shell", arguments: { command: "rm -f x" } },
          { id: "c1", name: "shell", arguments: { command: "echo fine" } },
        ],
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.inst.workspace, "seen.log"), "utf8")).toBe("echo fine\n");
  });
});

describe("ask and allow", () => {
  test("ask: refused in a script without -y, naming the rule; -y runs it", async () => {
    let r = await underRules(["rm -f a"], { config: 'permissions:\n  shell:\n    ask: ["rm"]' });
    expect(left("a")).toBe(true);
    expect(r.results[0]).toContain(
      `refused: the permission rule ask shell "rm" (${s!.inst.riendaPath("config.yaml")}) asks first, and the user did not allow it`,
    );
    expect(r.end).toMatchObject({ tools: { refused: 1 } });
    await s!.dispose();
    r = await underRules(["rm -f a"], { config: 'permissions:\n  shell:\n    ask: ["rm"]' }, ["-y"]);
    expect(left("a")).toBe(false);
    const approved = r.events.find((e) => e.type === "permission");
    expect(approved?.outcome).toBe("approved");
    expect(String(approved?.rule)).toContain('ask shell "rm"');
    expect(r.end).toMatchObject({ tools: { refused: 0 } });
  });

  test("the longest matching pattern decides between ask and allow; an allow list asks about the rest", async () => {
    const r = await underRules(["git --version", "git status --short", "echo hi", "ls"], {
      config: 'permissions:\n  shell:\n    ask: [git]\n    allow: ["git status", echo]',
    });
    expect(r.results[0]).toContain('the permission rule ask shell "git"');
    expect(r.results[1]).not.toContain("refused");
    expect(r.results[2]).toBe("hi");
    expect(r.results[3]).toContain("refused: the shell tool has an allow list and no allow rule matches it");
  });

  test("* for every call of a tool, and for every tool", async () => {
    const r = await underRules(["echo one"], { config: 'permissions:\n  "*":\n    deny: ["*"]' });
    expect(r.results[0]).toBe(
      `refused by the permission rule deny every tool "*" (${s!.inst.riendaPath("config.yaml")}): do not retry this another way; ask the user`,
    );
  });
});

describe("the rules as written", () => {
  test("bad rules are refused before any request, each naming its key", async () => {
    s = await scenario({
      agentFrontmatter:
        'tools: [shell]\npermissions:\n  shell:\n    deny: "rm"\n    block: [x]\n  word-count:\n    ask: ["min 3"]',
      configExtra: 'permissions:\n  shell:\n    allow: ["a; b"]',
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("permissions.shell.allow[0]");
    expect(r.stderr).toContain('"a; b" must be the start of one command');
    expect(s.server.requests.length).toBe(0);
    s.inst.config(readFileSync(s.inst.riendaPath("config.yaml"), "utf8").replace('allow: ["a; b"]', "allow: [ls]"));
    const again = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(again.stderr).toContain("permissions.shell.deny: must be a list of patterns");
    expect(again.stderr).toContain("permissions.shell.block: unknown key (known keys: allow, ask, deny)");
    expect(again.stderr).toContain(
      'permissions.word-count.ask[0]: "min 3": only a shell rule matches the words of a command',
    );
  });
});

describe("ask over rpc", () => {
  let rpc: RpcDriver | undefined;
  afterEach(() => {
    if (rpc && rpc.child.exitCode === null) rpc.child.kill("SIGKILL");
    rpc = undefined;
  });

  test("an ask rule is a confirm_request; the answer decides, and every line matches the schema", async () => {
    s = await scenario({ agentFrontmatter: 'tools: [shell]\npermissions:\n  shell:\n    ask: ["rm -f"]' });
    s.inst.file("a", "a");
    s.inst.file("b", "b");
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "shell", arguments: { command: "rm -f a" } },
          { id: "c2", name: "shell", arguments: { command: "rm -f b" } },
        ],
      },
      { text: "done" },
    );
    rpc = new RpcDriver(s.inst, ["-a", "coder"]);
    await rpc.waitFor((l) => l.type === "ready");
    rpc.send({ id: "p1", type: "prompt", text: "clean" });
    const first = await rpc.waitFor((l) => l.type === "confirm_request");
    expect([first.command_id, first.tool_call_id, first.title]).toEqual(["p1", "c1", "Allow this shell call?"]);
    expect(String(first.body)).toStartWith("rm -f a\n(the permission rule ask shell");
    rpc.send({ id: "a1", type: "confirm_answer", confirm_id: first.confirm_id, answer: true });
    const second = await rpc.waitFor((l) => l.type === "confirm_request" && l.confirm_id !== first.confirm_id);
    rpc.send({ id: "a2", type: "confirm_answer", confirm_id: second.confirm_id, answer: false });
    expect(await rpc.runEnd("p1")).toMatchObject({ reason: "end_turn", tools: { calls: 2, failed: 1, refused: 1 } });
    expect(left("a")).toBe(false);
    expect(left("b")).toBe(true);
    expect(
      rpc
        .eventsOf("p1")
        .filter((e) => e.type === "permission")
        .map((e) => e.outcome),
    ).toEqual(["approved", "refused"]);
    for (const line of rpc.lines)
      if (!validOutput(line)) throw new Error(`${JSON.stringify(line)}: ${schemaErrors(validOutput)}`);
  });
});
