/**
 * Subagents end to end, against the scripted provider: an agent's `agents:`
 * become tools agent__<id>; a call runs the child with its own model, tools,
 * hooks and system prompt in a child session (header naming the parent
 * session and the call); the parent reads the child's final answer; plain
 * output indents the child's tool lines; --json tags every child event with
 * `parent`; usage adds up; an interrupt ends the whole tree; the depth limit
 * and a cycle are errors the model reads; -y reaches the children.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Instance, waitFor } from "../support/instance.ts";
import { startProviderServer, type ProviderServer, type RecordedRequest } from "../support/provider-server.ts";
import { systemOf, toolNamesOf, toolResultsOf, jsonEvents } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

interface Setup {
  inst: Instance;
  server: ProviderServer;
}
let setup: Setup | undefined;
afterEach(async () => {
  await setup?.server.close();
  setup?.inst.dispose();
  setup = undefined;
});

/** A provider with two models (p/big, p/small) and the given agents, each `[frontmatter lines, body]`. */
async function start(agents: Record<string, [string, string]>, configExtra = ""): Promise<Setup> {
  const server = await startProviderServer();
  const inst = new Instance();
  inst.config(
    [
      "providers:",
      "  p:",
      "    protocol: openai_chat_completions",
      `    base_url: ${server.url}/v1`,
      "    api_key: test-key",
      "    models:",
      "      big: { id: big-model }",
      "      small: { id: small-model }",
      configExtra,
      "",
    ].join("\n"),
  );
  for (const [id, [frontmatter, body]] of Object.entries(agents)) inst.agent(id, `---\n${frontmatter}\n---\n${body}\n`);
  setup = { inst, server };
  return setup;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const modelOf = (r: RecordedRequest) => (r.body as { model: string }).model;

const LEAD = "description: Leads the work.\nmodel: p/big\nagents: [reviewer]";
const REVIEWER = "description: Reviews a file and says whether it is fine.\nmodel: p/small\ntools: [shell]";

describe("a subagent call", () => {
  test("runs the child with its own model, tools and prompt in a child session, and the parent reads its answer", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      {
        text: "Asking the reviewer.",
        toolCalls: [{ id: "call_r1", name: "agent__reviewer", arguments: { prompt: "Review notes.txt" } }],
        usage: { input: 100, output: 10 },
      },
      {
        toolCalls: [{ id: "call_s1", name: "shell", arguments: { command: "echo reviewed" } }],
        usage: { input: 20, output: 5 },
      },
      { text: "LGTM: notes.txt is fine.", usage: { input: 30, output: 7 } },
      { text: "The reviewer says notes.txt is fine.", usage: { input: 200, output: 12 } },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "check notes.txt"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    // stdout: the parent's messages only.
    expect(r.stdout).toBe("Asking the reviewer.\nThe reviewer says notes.txt is fine.\n");
    // The child's tool lines are indented under the call.
    expect(r.stderr).toContain(
      'tool: agent__reviewer {"prompt":"Review notes.txt"}\n  tool: shell {"command":"echo reviewed"}\n',
    );

    const [parent1, child1, child2, parent2] = server.requests;
    expect(toolNamesOf(parent1!)).toEqual(["agent__reviewer"]);
    const tool = (
      parent1!.body as { tools: { function: { name: string; description: string; parameters: unknown } }[] }
    ).tools[0]!.function;
    expect(tool.description).toBe("Reviews a file and says whether it is fine.");
    expect(tool.parameters).toMatchObject({
      type: "object",
      required: ["prompt"],
      properties: { prompt: { type: "string" } },
    });
    expect(modelOf(parent1!)).toBe("big-model");
    // The child: its own model, tools, system prompt, and the prompt as its only user message.
    expect(modelOf(child1!)).toBe("small-model");
    expect(toolNamesOf(child1!)).toEqual(["shell"]);
    expect(systemOf(child1!)).toBe("You review.");
    const childMessages = (child1!.body as { messages: { role: string; content: unknown }[] }).messages.filter(
      (m) => m.role !== "system",
    );
    expect(childMessages).toEqual([{ role: "user", content: "Review notes.txt" }]);
    expect(toolResultsOf(child2!)).toEqual(["reviewed"]);
    expect(toolResultsOf(parent2!)).toEqual(["LGTM: notes.txt is fine."]);

    // Two session files: the child's header names the parent session and the call.
    const parentId = sessionIdFrom(r.stderr);
    const files = sessionFiles(inst.home);
    expect(files.length).toBe(2);
    const childFile = files.find((f) => !f.endsWith(`/${parentId}.jsonl`))!;
    const [header, ...entries] = readEntries(childFile);
    expect(header).toMatchObject({
      kind: "header",
      version: 1,
      agent: "reviewer",
      model: "p/small",
      workdir: inst.workspace,
      parentSession: parentId,
      parentCallId: "call_r1",
    });
    expect(Object.keys(header!)).toEqual([
      "kind",
      "version",
      "id",
      "createdAt",
      "agent",
      "model",
      "workdir",
      "parentSession",
      "parentCallId",
    ]);
    const childTexts = entries
      .filter((e) => e.kind === "message")
      .map((e) => (e.blocks as { type: string; text?: string }[]).map((b) => b.text ?? b.type).join(""));
    expect(childTexts).toEqual(["Review notes.txt", "tool_call", "tool_result", "LGTM: notes.txt is fine."]);
    // The parent's own header is unchanged (no parent fields).
    expect(Object.keys(readEntries(files.find((f) => f.endsWith(`/${parentId}.jsonl`))!)[0]!)).toEqual([
      "kind",
      "version",
      "id",
      "createdAt",
      "agent",
      "model",
      "workdir",
    ]);
  });

  test("plain output: stdout is the parent's answer alone; nothing of the child's text or thinking is printed", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      {
        text: "Delegating.",
        thinking: "lead-thinks",
        toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }],
      },
      {
        text: "child-narrates",
        thinking: "child-thinks",
        toolCalls: [{ id: "s1", name: "shell", arguments: { command: "echo child-tool-output" } }],
      },
      { text: "child-answer", thinking: "child-thinks-again" },
      { text: "All good." },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Delegating.\nAll good.\n");
    // stderr: the child's tool line and its output, indented; none of its words.
    expect(r.stderr).toContain(
      'tool: agent__reviewer {"prompt":"Review"}\n  tool: shell {"command":"echo child-tool-output"}\n  child-tool-output\n',
    );
    for (const word of ["child-narrates", "child-thinks", "child-answer", "lead-thinks"])
      expect(r.stdout + r.stderr).not.toContain(word);
    // The parent's model read the child's answer.
    expect(toolResultsOf(server.requests[3]!)).toEqual(["child-answer"]);
  });

  test("--json: the child's events carry parent, its start and end are subagent_start and subagent_end, usage adds up", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      {
        toolCalls: [{ id: "call_r1", name: "agent__reviewer", arguments: { prompt: "Review" } }],
        usage: { input: 100, output: 10 },
      },
      {
        toolCalls: [{ id: "call_s1", name: "shell", arguments: { command: "echo hi" } }],
        usage: { input: 20, output: 5 },
      },
      { text: "fine", usage: { input: 30, output: 7 } },
      { text: "done", usage: { input: 200, output: 12 } },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    const types = events.map((e) => (e.parent ? `${String(e.type)}<${String(e.parent)}>` : String(e.type)));
    expect(types.filter((t) => !t.includes("delta"))).toEqual([
      "run_start",
      "message_end",
      "tool_call",
      "subagent_start<call_r1>",
      "message_end<call_r1>",
      "tool_call<call_r1>",
      "tool_output<call_r1>",
      "tool_result<call_r1>",
      "message_end<call_r1>",
      "subagent_end<call_r1>",
      "tool_result",
      "message_end",
      "run_end",
    ]);
    const startEvent = events.find((e) => e.type === "subagent_start")!;
    const childSession = sessionFiles(inst.home)
      .map((f) => f.split("/").pop()!.replace(".jsonl", ""))
      .find((id) => id !== events[0]!.sessionId);
    expect(startEvent).toEqual({
      type: "subagent_start",
      sessionId: childSession,
      agent: "reviewer",
      model: "p/small",
      workdir: inst.workspace,
      parent: "call_r1",
    });
    expect(events.find((e) => e.type === "subagent_end")).toEqual({
      type: "subagent_end",
      reason: "end_turn",
      usage: { inputTokens: 50, outputTokens: 12 },
      parent: "call_r1",
    });
    expect(events.find((e) => e.type === "tool_result" && !e.parent)).toMatchObject({
      id: "call_r1",
      name: "agent__reviewer",
      text: "fine",
      isError: false,
    });
    // The parent's totals include the child's.
    expect(events.at(-1)).toEqual({
      type: "run_end",
      reason: "end_turn",
      usage: { inputTokens: 350, outputTokens: 34 },
      tools: { calls: 2, failed: 0, refused: 0 },
    });
  });

  test("--json: a grandchild's parent is the path of call ids, unambiguous when ids repeat across levels", async () => {
    const { inst, server } = await start({
      a: ["description: Top.\nmodel: p/big\nagents: [b]", "A."],
      b: ["description: Middle.\nmodel: p/small\nagents: [c]\ntools: [shell]", "B."],
      c: ["description: Bottom.\nmodel: p/small\ntools: [shell]", "C."],
    });
    // The same call id at every level, as the replay provider (replay_1_1) and some providers give them.
    server.script(
      { toolCalls: [{ id: "x", name: "agent__b", arguments: { prompt: "b, go" } }] },
      { toolCalls: [{ id: "x", name: "agent__c", arguments: { prompt: "c, go" } }] },
      { toolCalls: [{ id: "x", name: "shell", arguments: { command: "echo from-c" } }] },
      { text: "c done" },
      { toolCalls: [{ id: "y", name: "shell", arguments: { command: "echo from-b" } }] },
      { text: "b done" },
      { text: "a done" },
    );
    const r = await inst.run(["run", "-a", "a", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    const shape = events
      .filter((e) => ["tool_call", "subagent_start", "subagent_end"].includes(e.type as string))
      .map(
        (e) => `${String(e.type)} ${String(e.name ?? e.agent ?? e.reason)}${e.parent ? ` <${String(e.parent)}>` : ""}`,
      );
    expect(shape).toEqual([
      "tool_call agent__b",
      "subagent_start b <x>",
      "tool_call agent__c <x>",
      "subagent_start c <x/x>",
      "tool_call shell <x/x>",
      "subagent_end end_turn <x/x>",
      "tool_call shell <x>",
      "subagent_end end_turn <x>",
    ]);
    expect(events.find((e) => e.type === "tool_output" && e.parent === "x/x")).toMatchObject({ text: "from-c\n" });
    expect(events.find((e) => e.type === "tool_output" && e.parent === "x")).toMatchObject({ text: "from-b\n" });
    // Plain output: each level under its call, the child's line after the grandchild's at the child's depth.
    const plain = await (async () => {
      server.reset();
      server.script(
        { toolCalls: [{ id: "x", name: "agent__b", arguments: { prompt: "b, go" } }] },
        { toolCalls: [{ id: "x", name: "agent__c", arguments: { prompt: "c, go" } }] },
        { toolCalls: [{ id: "x", name: "shell", arguments: { command: "echo from-c" } }] },
        { text: "c done" },
        { toolCalls: [{ id: "y", name: "shell", arguments: { command: "echo from-b" } }] },
        { text: "b done" },
        { text: "a done" },
      );
      return inst.run(["run", "-a", "a", "-p", "go"]);
    })();
    expect(plain.stdout).toBe("a done\n");
    expect(plain.stderr).toContain(
      'tool: agent__b {"prompt":"b, go"}\n  tool: agent__c {"prompt":"c, go"}\n    tool: shell {"command":"echo from-c"}\n    from-c\n  tool: shell {"command":"echo from-b"}\n  from-b\n',
    );
  });

  test("with prices, the child's cost is in its subagent_end and added to the parent's run_end", async () => {
    const { inst, server } = await start({
      lead: [LEAD, "You lead."],
      reviewer: ["description: Reviews.\nmodel: p/small", "You review."],
    });
    // big: $10 / $20 per million tokens; small: $1 / $2.
    inst.config(
      readFileSync(inst.riendaPath("config.yaml"), "utf8")
        .replace("big: { id: big-model }", "big: { id: big-model, cost: { input: 10, output: 20 } }")
        .replace("small: { id: small-model }", "small: { id: small-model, cost: { input: 1, output: 2 } }"),
    );
    server.script(
      {
        toolCalls: [{ id: "c1", name: "agent__reviewer", arguments: { prompt: "Review" } }],
        usage: { input: 1000, output: 100 },
      },
      { text: "fine", usage: { input: 2000, output: 500 } },
      { text: "done", usage: { input: 1000, output: 100 } },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    // child: 2000 * 1 + 500 * 2 = 3000 millionths; parent: 2 * (1000 * 10 + 100 * 20) = 24000 millionths.
    expect(events.find((e) => e.type === "subagent_end")).toMatchObject({
      usage: { inputTokens: 2000, outputTokens: 500 },
      cost: 0.003,
      parent: "c1",
    });
    expect(events.at(-1)).toMatchObject({
      type: "run_end",
      usage: { inputTokens: 4000, outputTokens: 700 },
      cost: 0.027,
    });
  });

  test("when the parent's model has no prices, the run shows no cost, though the priced child's subagent_end has its own", async () => {
    const { inst, server } = await start({
      lead: [LEAD, "You lead."],
      reviewer: ["description: Reviews.\nmodel: p/small", "You review."],
    });
    inst.config(
      readFileSync(inst.riendaPath("config.yaml"), "utf8").replace(
        "small: { id: small-model }",
        "small: { id: small-model, cost: { input: 1, output: 2 } }",
      ),
    );
    server.script(
      {
        toolCalls: [{ id: "c1", name: "agent__reviewer", arguments: { prompt: "Review" } }],
        usage: { input: 1000, output: 100 },
      },
      { text: "fine", usage: { input: 2000, output: 500 } },
      { text: "done", usage: { input: 1000, output: 100 } },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "subagent_end")).toMatchObject({ cost: 0.003, parent: "c1" });
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "run_end", usage: { inputTokens: 4000, outputTokens: 700 } });
    expect("cost" in end).toBe(false);
    const plain = await (async () => {
      server.script(
        {
          toolCalls: [{ id: "c1", name: "agent__reviewer", arguments: { prompt: "Review" } }],
          usage: { input: 1000, output: 100 },
        },
        { text: "fine", usage: { input: 2000, output: 500 } },
        { text: "done", usage: { input: 1000, output: 100 } },
      );
      return inst.run(["run", "-a", "lead", "-p", "go"]);
    })();
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain("cost:");
  });

  test("a child that fails is an error result the parent's model reads; the run goes on", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      { toolCalls: [{ id: "c1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { error: { status: 400, message: "context too long for small-model" } },
      { text: "The reviewer failed; I will do it myself." },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(0);
    const [result] = toolResultsOf(server.requests[2]!);
    expect(result).toStartWith('subagent "reviewer" failed: ');
    expect(result).toContain("context too long for small-model");
    expect(r.stderr).toContain('tool failed: subagent "reviewer" failed:');
  });

  test("the child has its own skills; a child that cannot be set up is an error result the parent reads", async () => {
    const { inst, server } = await start({
      lead: ["description: Leads.\nmodel: p/big\nagents: [writer, broken]", "You lead."],
      writer: ["description: Writes.\nmodel: p/small\nskills: [style]", "You write."],
      broken: ["description: Broken.\nmodel: p/small\ntools: [ghost]", "x"],
    });
    inst.write(
      inst.riendaPath("skills", "style", "SKILL.md"),
      "---\nname: style\ndescription: House style for release notes.\n---\nShort bullets.\n",
    );
    server.script(
      {
        toolCalls: [
          { id: "w1", name: "agent__writer", arguments: { prompt: "Write" } },
          { id: "b1", name: "agent__broken", arguments: { prompt: "Do" } },
        ],
      },
      { toolCalls: [{ id: "s1", name: "skill", arguments: { name: "style" } }] },
      { text: "written" },
      { text: "done" },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(systemOf(server.requests[1]!)).toContain("You write.\n\n# Skills\n");
    expect(systemOf(server.requests[1]!)).toContain("- style: House style for release notes.");
    expect(toolNamesOf(server.requests[1]!)).toEqual(["skill"]);
    expect(toolResultsOf(server.requests[2]!)[0]).toStartWith("Short bullets.");
    const [written, broken] = toolResultsOf(server.requests[3]!);
    expect(written).toBe("written");
    expect(broken).toStartWith('subagent "broken" could not start: unknown tool "ghost"');
  });

  test("bad arguments are an error result, and no child starts", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      { toolCalls: [{ id: "c1", name: "agent__reviewer", arguments: { task: "Review" } }] },
      { text: "ok" },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(server.requests[1]!)).toEqual([
      'invalid arguments for tool "agent__reviewer": expected {"prompt": "<the task>"} with a non-empty prompt',
    ]);
    expect(sessionFiles(inst.home).length).toBe(1);
  });
});

describe("limits", () => {
  test("beyond the depth limit a call is an error the model reads", async () => {
    const { inst, server } = await start(
      {
        a: ["description: Top.\nmodel: p/big\nagents: [b]", "A."],
        b: ["description: Middle.\nmodel: p/small\nagents: [c]", "B."],
        c: ["description: Bottom.\nmodel: p/small", "C."],
      },
      "subagents:\n  max_depth: 1",
    );
    server.script(
      { toolCalls: [{ id: "a1", name: "agent__b", arguments: { prompt: "go deeper" } }] },
      { toolCalls: [{ id: "b1", name: "agent__c", arguments: { prompt: "deeper still" } }] },
      { text: "c was out of reach" },
      { text: "b answered" },
    );
    const r = await inst.run(["run", "-a", "a", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(systemOf(server.requests[1]!)).toBe("B.");
    const [refused] = toolResultsOf(server.requests[2]!);
    expect(refused).toBe(
      'subagents nest at most 1 deep (subagents.max_depth in config.yaml), and "c" would run 2 below the top agent (a → b → c); do this part yourself',
    );
    expect(toolResultsOf(server.requests[3]!)).toEqual(["c was out of reach"]);
    expect(sessionFiles(inst.home).length).toBe(2);
  });

  test("the default depth is 3: a fourth level is refused", async () => {
    const agents: Record<string, [string, string]> = {};
    const names = ["l0", "l1", "l2", "l3", "l4"];
    names.forEach((id, i) => {
      agents[id] = [`description: Level ${i}.\nmodel: p/small${i < 4 ? `\nagents: [${names[i + 1]}]` : ""}`, id];
    });
    const { inst, server } = await start(agents);
    server.script(
      ...[0, 1, 2, 3].map((i) => ({
        toolCalls: [{ id: `x${i}`, name: `agent__${names[i + 1]}`, arguments: { prompt: "down" } }],
      })),
      { text: "l3 did it" },
      { text: "l2 done" },
      { text: "l1 done" },
      { text: "l0 done" },
    );
    const r = await inst.run(["run", "-a", "l0", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("l0 done\n");
    expect(toolResultsOf(server.requests[4]!)[0]).toContain(
      '"l4" would run 4 below the top agent (l0 → l1 → l2 → l3 → l4)',
    );
    expect(sessionFiles(inst.home).length).toBe(4);
    // Three levels of indentation in the plain output.
    expect(r.stderr).toContain(
      'tool: agent__l1 {"prompt":"down"}\n  tool: agent__l2 {"prompt":"down"}\n    tool: agent__l3 {"prompt":"down"}\n      tool: agent__l4 {"prompt":"down"}\n      tool failed: subagents nest at most 3 deep',
    );
  });

  test("an agent reaching itself is an error the model reads, not a crash", async () => {
    const { inst, server } = await start({
      ping: ["description: Ping.\nmodel: p/big\nagents: [pong]", "Ping."],
      pong: ["description: Pong.\nmodel: p/small\nagents: [ping]", "Pong."],
    });
    server.script(
      { toolCalls: [{ id: "p1", name: "agent__pong", arguments: { prompt: "your turn" } }] },
      { toolCalls: [{ id: "q1", name: "agent__ping", arguments: { prompt: "back to you" } }] },
      { text: "pong cannot call ping" },
      { text: "done" },
    );
    const r = await inst.run(["run", "-a", "ping", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(server.requests[2]!)).toEqual([
      'agent "ping" is already running above this call (ping → pong → ping): an agent cannot delegate to itself, directly or through others',
    ]);
  });

  test("a subagent that does not exist stops the run before any request", async () => {
    const { inst, server } = await start({
      lead: ["description: Leads.\nmodel: p/big\nagents: [reviewer, ghost]", "x"],
      reviewer: [REVIEWER, "x"],
    });
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent "ghost" (available: lead, reviewer)');
    expect(server.requests).toEqual([]);
    expect(sessionFiles(inst.home)).toEqual([]);
  });

  test("a tool of the same name as a subagent's tool (agent__<id>) is refused before any request, in run and doctor", async () => {
    const { inst, server } = await start({
      lead: ["description: Leads.\nmodel: p/big\ntools: [agent__reviewer]\nagents: [reviewer]", "x"],
      reviewer: [REVIEWER, "x"],
    });
    inst.tool(
      "agent__reviewer",
      `module.exports = { description: "mine", parameters: { type: "object" }, execute: () => "mine" };`,
    );
    const file = inst.riendaPath("agents", "lead.md");
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: ${file}: agents[0]: "reviewer" becomes the tool agent__reviewer, which tools: lists too; rename that tool, or remove one of the two\n`,
    );
    expect(server.requests).toHaveLength(0);
    const doctor = await inst.run(["doctor"]);
    expect(doctor.stdout).toContain(
      `problem: ${file}: agents[0]: "reviewer" becomes the tool agent__reviewer, which tools: lists too; rename that tool, or remove one of the two\n  fix: rename the tool (its folder in ~/.rienda/tools), or remove one of the two names\n`,
    );
  });

  test("an agent id that cannot be a tool name is refused in agents:", async () => {
    const { inst } = await start({ lead: ["description: Leads.\nmodel: p/big\nagents: [Code Reviewer]", "x"] });
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'agents[0]: "Code Reviewer" is not a valid subagent name (an agent id of 1 to 57 letters, digits, "_" or "-", as it becomes the tool name agent__<id>)',
    );
  });
});

describe("interrupts and confirmations", () => {
  test("Ctrl-C while a child's model streams ends the whole tree: exit 130, both sessions consistent", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      { toolCalls: [{ id: "call_r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { text: "never ends", hang: true },
    );
    const run = inst.start(["run", "-a", "lead", "-p", "go", "--json"]);
    await server.waitForRequests(2);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    await server.waitForClosed(2);
    expect(server.requests[1]!.aborted).toBe(true);
    expect(server.requests.length).toBe(2);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "subagent_end")).toMatchObject({ reason: "interrupted", parent: "call_r1" });
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });
    // The parent recorded a result for the call; the child recorded its interruption.
    const parentId = events[0]!.sessionId as string;
    const files = sessionFiles(inst.home);
    const parentEntries = readEntries(files.find((f) => f.endsWith(`/${parentId}.jsonl`))!);
    const results = parentEntries.flatMap((e) =>
      ((e.blocks as { type: string; toolResultIsError?: boolean }[] | undefined) ?? []).filter(
        (b) => b.type === "tool_result",
      ),
    );
    expect(results).toEqual([expect.objectContaining({ toolResultCallId: "call_r1", toolResultIsError: true })]);
    const childEntries = readEntries(files.find((f) => !f.endsWith(`/${parentId}.jsonl`))!);
    expect(childEntries.map((e) => e.kind)).toEqual(["header", "message", "interruption"]);
  });

  test("Ctrl-C while a child's tool runs kills its process and ends the run", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "sleep 60 & echo $! > child.pid; wait" } }] },
    );
    const run = inst.start(["run", "-a", "lead", "-p", "go"]);
    const pidFile = join(inst.workspace, "child.pid");
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      "the child's command to start",
    );
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(pid)).toBe(true);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the run was interrupted");
    await waitFor(() => !alive(pid), 5_000, "the child's process to die");
    expect(server.requests.length).toBe(2);

    // Both sessions are consistent: every call has its result, the child's
    // interruption is recorded, and the parent's call has an error result.
    const parentId = sessionIdFrom(r.stderr);
    const childFile = sessionFiles(inst.home).find((f) => !f.endsWith(`/${parentId}.jsonl`))!;
    const childId = childFile.split("/").pop()!.replace(".jsonl", "");
    const blocksOf = (file: string) =>
      messageEntries(file).flatMap(
        (e) =>
          e.blocks as {
            type: string;
            toolResultCallId?: string;
            toolResultIsError?: boolean;
            toolResult?: { text: string }[];
          }[],
      );
    const childResults = blocksOf(childFile).filter((b) => b.type === "tool_result");
    expect(childResults.map((b) => [b.toolResultCallId, b.toolResultIsError, b.toolResult![0]!.text])).toEqual([
      ["s1", true, "the run was interrupted before this tool call finished"],
    ]);
    expect(readEntries(childFile).at(-1)!.kind).toBe("interruption");
    const parentResults = blocksOf(sessionFile(inst.home, parentId)).filter((b) => b.type === "tool_result");
    expect(parentResults.map((b) => [b.toolResultCallId, b.toolResultIsError])).toEqual([["r1", true]]);

    // Each can be continued: the parent with its agent, the child as a conversation with the reviewer.
    server.reset();
    server.script({ text: "parent goes on" }, { text: "child goes on" });
    const parent = await inst.run(["run", "-s", parentId, "-p", "go on"]);
    expect(parent.code).toBe(0);
    expect(parent.stdout).toBe("parent goes on\n");
    expect(toolResultsOf(server.requests[0]!)).toEqual(["the run was interrupted before this tool call finished"]);
    const child = await inst.run(["run", "-s", childId, "-p", "go on"]);
    expect(child.code).toBe(0);
    expect(child.stdout).toBe("child goes on\n");
    expect(modelOf(server.requests[1]!)).toBe("small-model");
    expect(toolResultsOf(server.requests[1]!)).toEqual(["the run was interrupted before this tool call finished"]);
  });

  test("a second interrupt cuts a child's afterRun hook short in rienda run too", async () => {
    const { inst, server } = await start({
      lead: [LEAD, "You lead."],
      reviewer: [`${REVIEWER}\nhooks: [slow-end]`, "You review."],
    });
    inst.hook(
      "slow-end",
      `module.exports = { afterRun(ctx, end) { ctx.file.write("child-after-run", end.reason); while (true) {} } };`,
    );
    server.script(
      { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { text: "never ends", hang: true },
    );
    const run = inst.start(["run", "-a", "lead", "-p", "go", "--json"]);
    await server.waitForRequests(2);
    run.kill("SIGINT");
    const marker = join(inst.workspace, "child-after-run");
    await waitFor(
      () => existsSync(marker) && readFileSync(marker, "utf8") !== "",
      10_000,
      "the child's afterRun hook to start",
    );
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "subagent_end")).toMatchObject({ reason: "interrupted", parent: "r1" });
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });
  });

  test("a child is prepared only when called; Ctrl-C while its tools load ends the run at once, and no child session is left", async () => {
    const { inst, server } = await start({
      lead: ["description: Leads.\nmodel: p/big\nagents: [reviewer, idle]", "You lead."],
      reviewer: ["description: Reviews.\nmodel: p/small\ntools: [stuck]", "You review."],
      idle: ["description: Never called.\nmodel: p/small\ntools: [idle-tool]", "Idle."],
    });
    const loading = join(inst.root, "loading");
    const idleLoaded = join(inst.root, "idle-loaded");
    // The reviewer's tool never finishes loading (the load timeout is 10 s); the idle agent's tool says when it loads.
    inst.tool("stuck", `require("node:fs").writeFileSync(${JSON.stringify(loading)}, "1"); while (true) {}`);
    inst.tool(
      "idle-tool",
      `require("node:fs").writeFileSync(${JSON.stringify(idleLoaded)}, "1"); module.exports = { description: "x", parameters: { type: "object" }, execute: () => "x" };`,
    );
    server.script({ toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] });
    const run = inst.start(["run", "-a", "lead", "-p", "go", "--json"]);
    await waitFor(() => existsSync(loading), 10_000, "the reviewer's tool to start loading");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ id: "r1", isError: true });
    expect(events.some((e) => e.type === "subagent_start")).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });
    // Only the parent's session: the interrupted call created none, and the agent never called was never prepared.
    expect(sessionFiles(inst.home)).toHaveLength(1);
    expect(existsSync(idleLoaded)).toBe(false);
  });

  test("ctx.confirm in a child: -y approves, without it the answer is no", async () => {
    const { inst, server } = await start({
      lead: [LEAD, "You lead."],
      reviewer: ["description: Reviews.\nmodel: p/small\ntools: [ask]", "You review."],
    });
    inst.tool(
      "ask",
      `module.exports = { description: "asks", parameters: { type: "object" }, execute(ctx) { return ctx.confirm({ title: "Proceed?", body: "really" }) ? "approved" : "declined"; } };`,
    );
    const script = () =>
      server.script(
        { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
        { toolCalls: [{ id: "a1", name: "ask", arguments: {} }] },
        { text: "child done" },
        { text: "parent done" },
      );
    script();
    await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(toolResultsOf(server.requests[2]!)).toEqual(["declined"]);
    server.reset();
    script();
    await inst.run(["run", "-y", "-a", "lead", "-p", "go"]);
    expect(toolResultsOf(server.requests[2]!)).toEqual(["approved"]);
  });

  test("the parent's hooks see and may refuse a subagent call; the child's own hooks run in the child", async () => {
    const { inst, server } = await start({
      lead: [`${LEAD}\nhooks: [no-review]`, "You lead."],
      reviewer: ["description: Reviews.\nmodel: p/small\nhooks: [stamp]", "You review."],
    });
    inst.hook(
      "no-review",
      `module.exports = {
        beforeToolExecute(ctx, call) { if (call.name === "agent__reviewer" && /secret/.test(call.arguments.prompt)) return { allow: false, reason: "not for the reviewer" }; },
        afterToolExecute(ctx, call, result) { if (call.name === "agent__reviewer") return { text: "reviewer says: " + result.text }; },
      };`,
    );
    inst.hook(
      "stamp",
      `module.exports = { beforeModelRequest(ctx, req) { return { system: req.system + " [stamped]" }; } };`,
    );
    server.script(
      {
        toolCalls: [
          { id: "r1", name: "agent__reviewer", arguments: { prompt: "review the secret" } },
          { id: "r2", name: "agent__reviewer", arguments: { prompt: "review the notes" } },
        ],
      },
      { text: "notes fine" },
      { text: "done" },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(systemOf(server.requests[1]!)).toBe("You review. [stamped]");
    expect(systemOf(server.requests[2]!)).toBe("You lead.");
    // A refusal is final (no afterToolExecute); the answer of the call that ran went through afterToolExecute.
    expect(toolResultsOf(server.requests[2]!)).toEqual(["not for the reviewer", "reviewer says: notes fine"]);
  });
});

describe("rienda sessions and subagents", () => {
  test("children are left out unless --all, which lists each under its parent", async () => {
    const { inst, server } = await start({ lead: [LEAD, "You lead."], reviewer: [REVIEWER, "You review."] });
    server.script(
      { toolCalls: [{ id: "r1", name: "agent__reviewer", arguments: { prompt: "Review" } }] },
      { text: "fine" },
      { text: "done" },
    );
    const r = await inst.run(["run", "-a", "lead", "-p", "check it"]);
    const parentId = sessionIdFrom(r.stderr);
    const childId = sessionFiles(inst.home)
      .map((f) => f.split("/").pop()!.replace(".jsonl", ""))
      .find((id) => id !== parentId)!;
    const plain = await inst.run(["sessions"]);
    expect(plain.stdout).toContain(parentId);
    expect(plain.stdout).not.toContain(childId);
    const json = JSON.parse((await inst.run(["sessions", "--json"])).stdout) as { id: string }[];
    expect(json.map((s) => s.id)).toEqual([parentId]);
    const all = await inst.run(["sessions", "--all"]);
    const lines = all.stdout.trim().split("\n");
    expect(lines[1]).toStartWith(`${parentId}  `);
    expect(lines[2]).toStartWith(`  ${childId}`);
    expect(lines[2]).toContain("reviewer");
    const allJson = JSON.parse((await inst.run(["sessions", "--all", "--json"])).stdout) as Record<string, unknown>[];
    expect(allJson.map((s) => s.id)).toEqual([parentId, childId]);
    expect(allJson[1]).toMatchObject({
      parentSession: parentId,
      parentCallId: "r1",
      agent: "reviewer",
      title: "Review",
    });
    expect("parentSession" in allJson[0]!).toBe(false);
  });
});

describe("rienda doctor and subagents", () => {
  test("an agent naming an agent that does not exist under agents: is a problem with its file", async () => {
    const { inst } = await start({
      lead: ["description: Leads.\nmodel: p/big\nagents: [reviewer, ghost]", "x"],
      reviewer: [REVIEWER, "x"],
    });
    const r = await inst.run(["doctor"]);
    expect(r.code).toBe(1);
    const file = inst.riendaPath("agents", "lead.md");
    expect(r.stdout).toContain(
      `problem: ${file}: agents[1]: unknown agent "ghost" (available: lead, reviewer)\n  fix: create it as ghost.md beside ${file}, or remove "ghost" from agents:`,
    );
    expect(r.stdout).toEndWith("1 problem, 0 warnings\n");
  });
});
