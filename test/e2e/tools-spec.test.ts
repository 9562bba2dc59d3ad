/**
 * tools.md (the specification page) read statement by statement against the
 * compiled binary: each test copies a sentence, a table row or an example
 * of the page literally and checks it from outside (argv, files, the
 * scripted provider's requests, stdout/stderr, --json events, session
 * files). Written as an audit independent of the tests that grew with the
 * code, so some overlap with them on purpose.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import {
  jsonEvents,
  scenario,
  toolNamesOf,
  toolResultsOf,
  type JsonEvent,
  type Scenario,
} from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";
import { WORD_COUNT, JSON_FIELD } from "../support/spec-examples.ts";

let s: Scenario | undefined;
let http: Server | undefined;
afterEach(async () => {
  if (http) await new Promise<void>((done) => http!.close(() => done()));
  http = undefined;
  await s?.dispose();
  s = undefined;
});

/** "Examples": ask the user before doing something risky, verbatim. */
const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) {
      return { text: "cancelled by the user", isError: true };
    }
    const result = ctx.system.exec("git push");
    return result.code === 0
      ? "pushed"
      : { text: result.stderr, isError: true };
  },
};
`;

/** "Examples": call an API with ctx.http.fetch, verbatim but for the API's address (`API` is replaced). */
const RELEASE_TAG = `module.exports = {
  description: "Returns the latest release tag of a GitHub repository.",
  parameters: {
    type: "object",
    properties: { repo: { type: "string" } },
    required: ["repo"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const res = ctx.http.fetch(
      "https://api.github.com/repos/" + args.repo + "/releases/latest",
    );
    if (res.status !== 200) {
      return { text: "HTTP " + res.status, isError: true };
    }
    return JSON.parse(res.body).tag_name;
  },
};
`;

/** A tool whose execute body is `body` (a function body taking ctx and args). */
function toolSource(body: string, parameters = '{ type: "object" }'): string {
  return `module.exports = { description: "d", parameters: ${parameters}, execute: function(ctx, args) { ${body} } };\n`;
}

/** The tool_result events of a --json run. */
function results(stdout: string): JsonEvent[] {
  return jsonEvents(stdout).filter((e) => e.type === "tool_result");
}

/** A local HTTP server answering with `answer`; every request is recorded with its body. */
/** One answer of the local HTTP server. */
interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

async function startHttp(answer: (req: IncomingMessage, body: string) => HttpAnswer) {
  const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  http = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const a = answer(req, body);
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? "");
    });
  });
  await new Promise<void>((ready) => http!.listen(0, "127.0.0.1", ready));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, seen };
}

describe("tools.md: where tools live", () => {
  test("~/.rienda/tools/word-count/index.js defines a tool called word-count; the agent of the page (model openai/gpt-4o, tools as a block list) calls it", async () => {
    s = await scenario();
    // The agent's frontmatter exactly as on the page: its model is openai/gpt-4o.
    s.inst.config(
      [
        "providers:",
        "  openai:",
        "    preset: openai",
        `    base_url: ${s.server.url}/v1`,
        "    api_key: test-key",
        "    models: { gpt-4o: {} }",
        "",
      ].join("\n"),
    );
    s.inst.agent("careful", "---\ndescription: A careful agent.\nmodel: openai/gpt-4o\ntools:\n  - word-count\n---\n");
    s.inst.tool("word-count", WORD_COUNT);
    s.inst.file("notes.txt", "  alpha beta\n\tgamma  delta epsilon \n");
    s.server.script(
      { toolCalls: [{ id: "c1", name: "word-count", arguments: { path: "notes.txt" } }] },
      { text: "five" },
    );
    const r = await s.inst.run(["run", "-a", "careful", "-p", "count"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(s.server.requests[0]!.path).toBe("/v1/responses");
    expect((s.server.requests[0]!.body as { model: string }).model).toBe("gpt-4o");
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["word-count"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["5"]);
    expect(r.stdout).toBe("five\n");
  });

  test("tools are never read from a workspace: a .rienda/tools there adds nothing", async () => {
    s = await scenario({ agentFrontmatter: "tools: [sneaky]" });
    s.inst.file(".rienda/tools/sneaky/index.js", toolSource('return "from the workspace";'));
    s.inst.file("tools/sneaky/index.js", toolSource('return "from the workspace";'));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown tool "sneaky"');
    expect(s.server.requests).toHaveLength(0);
    const direct = await s.inst.run(["tool", "run", "sneaky", "--args", "{}"]);
    expect(direct.code).toBe(1);
    expect(direct.stdout).toBe("");
  });

  test("a user tool that shares a name with a built-in shadows it in a run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.inst.tool("shell", toolSource('return "mine: " + args.command;'));
    s.inst.file("marker", "kept");
    s.server.script({ toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm marker" } }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["mine: rm marker"]);
    expect(readFileSync(join(s.inst.workspace, "marker"), "utf8")).toBe("kept");
  });
});

describe("tools.md: name rules (1 to 64 letters, digits, underscores or hyphens)", () => {
  const name64 = `A_b-${"x".repeat(60)}`;
  const name65 = `${name64}y`;

  test("a 64-character name of every allowed kind is a tool; 65 characters, a dot or a space is not", async () => {
    s = await scenario();
    for (const name of [name64, "a", "Z9_-"]) s.inst.tool(name, toolSource(`return "ran ${name}";`));
    for (const name of [name65, "has.dot", "has space", "ünï"])
      s.inst.tool(name, toolSource('return "should not run";'));
    for (const name of [name64, "a", "Z9_-"]) {
      const r = await s.inst.run(["tool", "run", name, "--args", "{}"]);
      expect(r.stdout).toBe(`ran ${name}\n`);
      expect(r.code).toBe(0);
    }
    for (const name of [name65, "has.dot", "has space", "ünï"]) {
      const r = await s.inst.run(["tool", "run", name, "--args", "{}"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
    }
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stdout).toContain(name64);
    expect(list.stdout).not.toContain("should not run");
    // Each bad name is a diagnostic, never silently dropped.
    for (const name of [name65, "has.dot", "has space", "ünï"]) expect(list.stderr).toContain(name);
  });

  test("an agent naming a tool with a 65-character name fails before any request", async () => {
    s = await scenario({ agentFrontmatter: `tools: [${name65}]` });
    s.inst.tool(name65, toolSource('return "x";'));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(name65);
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("tools.md: anatomy (description, parameters, execute, all required)", () => {
  const broken: Record<string, string> = {
    "no-description": 'module.exports = { parameters: { type: "object" }, execute() { return "x"; } };',
    "no-parameters": 'module.exports = { description: "d", execute() { return "x"; } };',
    "no-execute": 'module.exports = { description: "d", parameters: { type: "object" } };',
    "description-number":
      'module.exports = { description: 42, parameters: { type: "object" }, execute() { return "x"; } };',
    "parameters-string": 'module.exports = { description: "d", parameters: "object", execute() { return "x"; } };',
    "execute-string": 'module.exports = { description: "d", parameters: { type: "object" }, execute: "return 1" };',
    "not-an-object": 'module.exports = function () { return "x"; };',
    "throws-on-load": 'throw new Error("cannot start");',
    "syntax-error": "module.exports = { description: ",
  };

  test("a file missing any field is skipped and reported as a diagnostic; a run of an agent that does not use it goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [good]" });
    s.inst.tool("good", toolSource('return "good ran";'));
    for (const [name, source] of Object.entries(broken)) s.inst.tool(name, source);
    const list = await s.inst.run(["tool", "list"]);
    expect(list.code).toBe(0);
    for (const name of Object.keys(broken)) {
      expect(list.stderr).toContain(`"${name}"`);
      expect(list.stdout).not.toContain(`${name} `);
    }
    s.server.script({ toolCalls: [{ id: "c1", name: "good", arguments: {} }] }, { text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["good"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["good ran"]);
    const doctor = await s.inst.run(["doctor"]);
    for (const name of Object.keys(broken)) expect(doctor.stdout).toContain(`"${name}"`);
  });

  test("parameters reach every provider verbatim, keywords the page does not mention included", async () => {
    const parameters = {
      type: "object",
      description: "Top-level description.",
      properties: {
        path: { type: "string", description: "Path relative to the workspace.", minLength: 1, pattern: "^[^/]" },
        mode: { type: "string", enum: ["fast", "slow"], default: "fast" },
        depth: { type: ["integer", "null"], minimum: 0, maximum: 10 },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
        nested: { type: "object", properties: { a: { $ref: "#/$defs/thing" } }, additionalProperties: true },
      },
      required: ["path"],
      additionalProperties: false,
      $defs: { thing: { type: "string", format: "date" } },
    };
    for (const protocol of ["openai_chat_completions", "openai_responses", "anthropic"] as const) {
      s = await scenario({ protocol, agentFrontmatter: "tools: [schema]" });
      s.inst.tool(
        "schema",
        `module.exports = { description: "Counts the words.", parameters: ${JSON.stringify(parameters)}, execute() { return "x"; } };`,
      );
      s.server.script({ text: "ok" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      const [tool] = (s.server.requests[0]!.body as { tools: Record<string, unknown>[] }).tools;
      const sent =
        protocol === "anthropic"
          ? tool!.input_schema
          : protocol === "openai_responses"
            ? tool!.parameters
            : (tool!.function as Record<string, unknown>).parameters;
      const description =
        protocol === "openai_chat_completions"
          ? (tool!.function as Record<string, unknown>).description
          : tool!.description;
      expect(sent).toEqual(parameters);
      expect(description).toBe("Counts the words.");
      await s.dispose();
      s = undefined;
    }
  });
});

describe("tools.md: execute(ctx, args)", () => {
  test("execute is called once per invocation, with args decoded from JSON into a plain object", async () => {
    s = await scenario({ agentFrontmatter: "tools: [echo]" });
    s.inst.tool(
      "echo",
      toolSource(
        'ctx.file.write("calls.log", JSON.stringify({ args: args, proto: Object.getPrototypeOf(args) === Object.prototype }) + "\\n", { append: true }); return "ok";',
      ),
    );
    const one = {
      s: 'é "quoted"\n',
      n: 1.5,
      b: false,
      z: null,
      list: [1, "two", { three: 3 }],
      obj: { deep: { deeper: [] } },
    };
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "echo", arguments: one },
          { id: "c2", name: "echo", arguments: {} },
        ],
      },
      { toolCalls: [{ id: "c3", name: "echo", arguments: { again: true } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const lines = readFileSync(join(s.inst.workspace, "calls.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { args: one, proto: true },
      { args: {}, proto: true },
      { args: { again: true }, proto: true },
    ]);
  });

  const shapes: { name: string; value: string; text: string | RegExp; isError: boolean }[] = [
    { name: "a string", value: '"plain text"', text: "plain text", isError: false },
    { name: "an empty string", value: '""', text: "", isError: false },
    { name: "{ text }", value: '{ text: "just text" }', text: "just text", isError: false },
    { name: "{ text, isError: false }", value: '{ text: "fine", isError: false }', text: "fine", isError: false },
    { name: "{ text, isError: true }", value: '{ text: "it broke", isError: true }', text: "it broke", isError: true },
    { name: "a number", value: "42", text: /./, isError: true },
    { name: "a boolean", value: "true", text: /./, isError: true },
    { name: "an array", value: '["a"]', text: /./, isError: true },
    { name: "null", value: "null", text: /./, isError: true },
    { name: "undefined", value: "undefined", text: /./, isError: true },
    { name: "an object without text", value: '{ result: "x" }', text: /./, isError: true },
    { name: "an object whose text is not a string", value: "{ text: 42 }", text: /./, isError: true },
    { name: "a Promise", value: 'Promise.resolve("later")', text: /./, isError: true },
  ];

  test("typed returns: a string or { text, isError? } is what the model reads; anything else is an error result, never serialized", async () => {
    s = await scenario({ agentFrontmatter: `tools: [${shapes.map((_, i) => `shape${i}`).join(", ")}]` });
    for (const [i, shape] of shapes.entries()) s!.inst.tool(`shape${i}`, toolSource(`return ${shape.value};`));
    s.server.script(
      { toolCalls: shapes.map((_, i) => ({ id: `c${i}`, name: `shape${i}`, arguments: {} })) },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const got = results(r.stdout);
    expect(got).toHaveLength(shapes.length);
    shapes.forEach((shape, i) => {
      const result = got[i]!;
      expect({ shape: shape.name, isError: result.isError }).toEqual({ shape: shape.name, isError: shape.isError });
      if (typeof shape.text === "string") expect(result.text).toBe(shape.text);
      else expect(result.text as string).toMatch(shape.text);
    });
    // No implicit serialization: 42 never reaches the model as "42", the array never as its JSON.
    const sent = toolResultsOf(s.server.requests[1]!);
    expect(sent[5]).not.toBe("42");
    expect(sent[7]).not.toBe('["a"]');
    // The session marks error results as such.
    const start = jsonEvents(r.stdout).find((e) => e.type === "run_start")!;
    const stored = messageEntries(sessionFile(s.inst.home, String(start.sessionId)));
    const blocks = stored.flatMap((m) =>
      (m.blocks as Record<string, unknown>[]).filter((b) => b.type === "tool_result"),
    );
    expect(blocks.map((b) => b.toolResultIsError === true)).toEqual(shapes.map((shape) => shape.isError));
  });

  test("an async execute returns a Promise, which is anything else: every call is an error result, the run goes on (said once at its start)", async () => {
    s = await scenario({ agentFrontmatter: "tools: [eager]" });
    s.inst.tool(
      "eager",
      toolSource("return 'never seen';").replace("execute: function(ctx, args)", "execute: async function(ctx, args)"),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "eager", arguments: {} }] }, { text: "it failed" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const [result] = results(r.stdout);
    expect(result!.isError).toBe(true);
    expect(result!.text as string).toContain("Promise");
    expect(toolResultsOf(s.server.requests[1]!)[0]).not.toBe("never seen");
    expect(
      jsonEvents(r.stdout)
        .filter((e) => e.type === "notice")
        .map((e) => e.message),
    ).toContainEqual(expect.stringContaining('tool "eager": "execute" is an async function'));
    const direct = await s.inst.run(["tool", "run", "eager", "--args", "{}"]);
    expect(direct.code).toBe(1);
    expect(direct.stdout).toContain("Promise");
  });

  test("{ text, isError } with other fields beside it (a function, a BigInt, a cycle) is still that result: the other fields are ignored", async () => {
    s = await scenario({ agentFrontmatter: "tools: [extra]" });
    s.inst.tool(
      "extra",
      toolSource(
        "const o = { text: 'the text', isError: true, helper() {}, big: 1n, when: new Date(0) }; o.self = o; return o;",
      ),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "extra", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(results(r.stdout).map((e) => [e.text, e.isError])).toEqual([["the text", true]]);
  });

  test("the page's way to return structured data: JSON.stringify({ count: words, file: args.path })", async () => {
    s = await scenario({ agentFrontmatter: "tools: [structured]" });
    s.inst.tool(
      "structured",
      toolSource("const words = 3;\n    return JSON.stringify({ count: words, file: args.path });"),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "structured", arguments: { path: "a.txt" } }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(['{"count":3,"file":"a.txt"}']);
  });

  test("a throw fails the invocation, never the run: the model receives the error text and the conversation continues", async () => {
    s = await scenario({ agentFrontmatter: "tools: [boom, plain]" });
    s.inst.tool("boom", toolSource('throw new Error("the disk is on fire");'));
    s.inst.tool("plain", toolSource('throw "a thrown string";'));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "boom", arguments: {} },
          { id: "c2", name: "plain", arguments: {} },
        ],
      },
      { text: "I see, it failed." },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    const [boom, plain] = results(r.stdout);
    expect(boom!.isError).toBe(true);
    expect(boom!.text as string).toContain("the disk is on fire");
    expect(plain!.isError).toBe(true);
    expect(plain!.text as string).toContain("a thrown string");
    const sent = toolResultsOf(s.server.requests[1]!);
    expect(sent[0]).toContain("the disk is on fire");
    expect(jsonEvents(r.stdout).at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
  });
});

describe("tools.md: the context, top level", () => {
  const PROBE = toolSource(`return JSON.stringify({
      workdir: ctx.workdir, session: ctx.session, agent: ctx.agent, config: ctx.config,
      types: { log: typeof ctx.log, sleep: typeof ctx.sleep, confirm: typeof ctx.confirm, notify: typeof ctx.notify },
    });`);

  test("ctx.workdir, ctx.session, ctx.agent (name, whole frontmatter, systemPrompt) and ctx.config (the whole config.yaml)", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [probe]\nhooks: [noop]\nconfig:\n  probe: { depth: 3, names: [a, b] }",
      agentBody: "\nYou are careful.\n\nAlways count twice.\n",
      configExtra: "config:\n  word-count: { min_length: 3 }",
    });
    s.inst.hook("noop", "module.exports = { afterRun() {} };");
    s.inst.tool("probe", PROBE);
    s.inst.file("AGENTS.md", "Project rules.");
    const sub = join(s.inst.workspace, "deeper");
    mkdirSync(sub);
    s.server.script({ toolCalls: [{ id: "c1", name: "probe", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "-C", sub]);
    expect(r.code).toBe(0);
    const seen = JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!);
    expect(seen.workdir).toBe(sub);
    expect(seen.session).toEqual({ id: sessionIdFrom(r.stderr), agentId: "coder", modelId: "p/m", workdir: sub });
    expect(seen.agent).toMatchObject({
      name: "coder",
      description: "A test agent.",
      model: "p/m",
      tools: ["probe"],
      hooks: ["noop"],
      config: { probe: { depth: 3, names: ["a", "b"] } },
      systemPrompt: "You are careful.\n\nAlways count twice.",
    });
    expect(seen.config.config).toEqual({ "word-count": { min_length: 3 } });
    expect(seen.config.providers.p.models.m.id).toBe("wire-model");
    expect(seen.types).toEqual({ log: "function", sleep: "function", confirm: "function", notify: "function" });
  });

  test("ctx.agent of an agent without hooks or config still has them (empty)", async () => {
    s = await scenario({ agentFrontmatter: "tools: [probe]" });
    s.inst.tool("probe", PROBE);
    s.server.script({ toolCalls: [{ id: "c1", name: "probe", arguments: {} }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const seen = JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!);
    expect(seen.agent.hooks).toEqual([]);
    expect(seen.agent.config).toEqual({});
  });

  test("ctx.config is read-only: a tool that changes it changes nothing for the next call or the file", async () => {
    s = await scenario({ agentFrontmatter: "tools: [meddle]", configExtra: "config:\n  meddle: { level: 1 }" });
    s.inst.tool(
      "meddle",
      toolSource(`let threw = false;
      try { "use strict"; ctx.config.config.meddle.level = 99; ctx.config.config.added = 1; delete ctx.config.providers; } catch (e) { threw = true; }
      return String(ctx.config.config.meddle.level) + "," + String(ctx.config.config.added) + "," + typeof ctx.config.providers;`),
    );
    s.server.script(
      { toolCalls: [{ id: "c1", name: "meddle", arguments: {} }] },
      { toolCalls: [{ id: "c2", name: "meddle", arguments: {} }] },
      { text: "ok" },
    );
    const before = readFileSync(s.inst.riendaPath("config.yaml"), "utf8");
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["1,undefined,object", "1,undefined,object"]);
    expect(readFileSync(s.inst.riendaPath("config.yaml"), "utf8")).toBe(before);
  });

  test("ctx.log streams to the front end while the tool runs, and is not capped", async () => {
    s = await scenario({ agentFrontmatter: "tools: [talk]" });
    const big = 600 * 1024;
    s.inst.tool(
      "talk",
      toolSource(`ctx.log("first line before waiting");
      while (!ctx.file.exists("go")) ctx.sleep(20);
      ctx.log("x".repeat(${big}) + "END");
      return "done";`),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "talk", arguments: {} }] }, { text: "ok" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(
      () => run.stderr().includes("first line before waiting"),
      20_000,
      "ctx.log to reach stderr while the tool waits",
    );
    expect(existsSync(join(s.inst.workspace, "go"))).toBe(false);
    writeFileSync(join(s.inst.workspace, "go"), "");
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${"x".repeat(big)}END`);
  });

  test("with --json, ctx.log and a command's output are tool_output events while the tool still runs", async () => {
    s = await scenario({ agentFrontmatter: "tools: [talk]" });
    s.inst.tool(
      "talk",
      toolSource(`ctx.log("log before waiting");
      ctx.system.exec("echo exec before waiting; echo exec stderr >&2");
      while (!ctx.file.exists("go")) ctx.sleep(20);
      return "done";`),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "talk", arguments: {} }] }, { text: "ok" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x", "--json"]);
    const live = () =>
      run
        .stdout()
        .split("\n")
        .filter((l) => l.includes('"tool_output"'))
        .map((l) => JSON.parse(l) as JsonEvent);
    await waitFor(() => live().length >= 3, 20_000, "three tool_output events while the tool waits");
    expect(run.stdout()).not.toContain('"tool_result"');
    // The command's two pipes are read apart, so only the log line's place is certain.
    const seen = live().map((e) => [e.id, e.name, e.stream, String(e.text).trim()]);
    expect(seen[0]).toEqual(["c1", "talk", "log", "log before waiting"]);
    expect(seen.slice(1).sort()).toEqual([
      ["c1", "talk", "stderr", "exec stderr"],
      ["c1", "talk", "stdout", "exec before waiting"],
    ]);
    writeFileSync(join(s.inst.workspace, "go"), "");
    const r = await run.done;
    expect(r.code).toBe(0);
  });

  test("ctx.sleep(ms) sleeps, and returns early when the run is interrupted", async () => {
    s = await scenario({ agentFrontmatter: "tools: [nap]" });
    s.inst.tool(
      "nap",
      toolSource(
        'const t = Date.now(); ctx.sleep(50); ctx.file.write("slept", String(Date.now() - t)); ctx.log("napping"); ctx.sleep(600000); return "woke";',
      ),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "nap", arguments: {} }] }, { text: "ok" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"], { killAfterMs: 30_000 });
    await waitFor(() => run.stderr().includes("napping"), 20_000, "the tool to sleep");
    expect(Number(readFileSync(join(s.inst.workspace, "slept"), "utf8"))).toBeGreaterThanOrEqual(50);
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("rienda: the run was interrupted");
  });

  test("ctx.confirm returns a boolean: false without a terminal and without -y, true with -y; ctx.notify shows a notice and goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [ask]" });
    s.inst.tool(
      "ask",
      toolSource(
        'const a = ctx.confirm({ title: "Proceed?", body: "It is risky." }); const n = ctx.notify({ title: "Heads up", body: "noted" }); return typeof a + ":" + a + ":" + n;',
      ),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "ask", arguments: {} }] }, { text: "ok" });
    const no = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["boolean:false:undefined"]);
    expect(no.stderr).toContain("Heads up");
    expect(no.stderr).toContain("noted");
    s.server.script({ toolCalls: [{ id: "c1", name: "ask", arguments: {} }] }, { text: "ok" });
    const yes = await s.inst.run(["run", "-a", "coder", "-p", "x", "-y"]);
    expect(yes.code).toBe(0);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["boolean:true:undefined"]);
    s.server.script({ toolCalls: [{ id: "c1", name: "ask", arguments: {} }] }, { text: "ok" });
    const json = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(jsonEvents(json.stdout)).toContainEqual(
      expect.objectContaining({ type: "notice", title: "Heads up", body: "noted" }),
    );
  });
});

describe("tools.md: ctx.file", () => {
  test("read, write (parents, append, truncate), exists and list, relative to ctx.workdir", async () => {
    s = await scenario();
    s.inst.file(".gitignore", "ignored-by-git/\n*.log\n");
    s.inst.file("sub/.ignore", "secret.txt\n");
    s.inst.file("sub/secret.txt", "s");
    s.inst.file("sub/kept.txt", "k");
    s.inst.file("ignored-by-git/x.txt", "x");
    s.inst.file("build.log", "l");
    s.inst.file("top.txt", "t");
    s.inst.tool(
      "files",
      toolSource(`const out = {};
      out.writeReturns = ctx.file.write("new/dir/deep/file.txt", "first");
      ctx.file.write("new/dir/deep/file.txt", " second", { append: true });
      out.appended = ctx.file.read("new/dir/deep/file.txt");
      ctx.file.write("new/dir/deep/file.txt", "short");
      out.truncated = ctx.file.read("new/dir/deep/file.txt", { encoding: "utf8" });
      out.absolute = ctx.file.read(ctx.workdir + "/top.txt");
      out.exists = [ctx.file.exists("top.txt"), ctx.file.exists("sub"), ctx.file.exists("nope"), ctx.file.exists(ctx.workdir)];
      const sort = (l) => l.map((e) => e.path + (e.isDir ? "/" : "") + "=" + e.name).sort();
      out.list = sort(ctx.file.list("."));
      out.flat = sort(ctx.file.list(".", { recursive: false }));
      out.everything = sort(ctx.file.list(".", { respectIgnoreFiles: false }));
      out.sub = sort(ctx.file.list("sub"));
      out.keys = Object.keys(ctx.file.list(".")[0]).sort();
      return JSON.stringify(out);`),
    );
    const r = await s.inst.run(["tool", "run", "files", "--args", "{}"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.writeReturns).toBeUndefined();
    expect(out.appended).toBe("first second");
    expect(out.truncated).toBe("short");
    expect(out.absolute).toBe("t");
    expect(out.exists).toEqual([true, true, false, true]);
    expect(out.keys).toEqual(["isDir", "name", "path"]);
    expect(out.list).toEqual(
      [
        ".gitignore=.gitignore",
        "new/=new",
        "new/dir/=dir",
        "new/dir/deep/=deep",
        "new/dir/deep/file.txt=file.txt",
        "sub/=sub",
        "sub/.ignore=.ignore",
        "sub/kept.txt=kept.txt",
        "top.txt=top.txt",
      ].sort(),
    );
    expect(out.flat).toEqual([".gitignore=.gitignore", "new/=new", "sub/=sub", "top.txt=top.txt"].sort());
    expect(out.everything).toContain("ignored-by-git/x.txt=x.txt");
    expect(out.everything).toContain("build.log=build.log");
    expect(out.everything).toContain("sub/secret.txt=secret.txt");
    expect(out.sub).toEqual(["sub/.ignore=.ignore", "sub/kept.txt=kept.txt"]);
  });

  test("invalid UTF-8 is replaced, never raised", async () => {
    s = await scenario();
    writeFileSync(join(s.inst.workspace, "bad.txt"), Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3]));
    s.inst.tool("bad", toolSource('return JSON.stringify(ctx.file.read("bad.txt"));'));
    const r = await s.inst.run(["tool", "run", "bad", "--args", "{}"]);
    expect(r.code).toBe(0);
    const text = JSON.parse(r.stdout) as string;
    expect(text.startsWith("a")).toBe(true);
    expect(text).toContain("b");
    expect(text).toContain("\uFFFD");
  });
});

describe("tools.md: ctx.env", () => {
  test("ctx.env.get returns a variable's value, or null when it is unset", async () => {
    s = await scenario();
    s.inst.tool(
      "env",
      toolSource(
        'return JSON.stringify([ctx.env.get("SET_ONE"), ctx.env.get("SET_EMPTY"), ctx.env.get("NEVER_SET_ANYWHERE")]);',
      ),
    );
    const r = await s.inst.run(["tool", "run", "env", "--args", "{}"], {
      env: { SET_ONE: "value one", SET_EMPTY: "" },
    });
    expect(JSON.parse(r.stdout)).toEqual(["value one", "", null]);
  });
});

describe("tools.md: ctx.http.fetch", () => {
  test("returns { status, headers, body } whatever the status; method, headers and body are sent as given", async () => {
    const api = await startHttp(
      (req): HttpAnswer =>
        req.url === "/missing"
          ? { status: 404, headers: { "content-type": "text/plain", "X-Custom": "yes" }, body: "not here" }
          : { status: 201, headers: { "content-type": "application/json" }, body: '{"ok":true}' },
    );
    s = await scenario();
    s.inst.tool(
      "fetcher",
      toolSource(`const a = ctx.http.fetch("${api.url}/things", { method: "POST", headers: { "X-Token": "t0k", "Content-Type": "text/plain" }, body: "raw body, not JSON {" });
      const b = ctx.http.fetch("${api.url}/missing");
      const flat = Object.values(b.headers).every((v) => typeof v === "string");
      return JSON.stringify({ a: { status: a.status, body: a.body }, b: { status: b.status, body: b.body, custom: b.headers["x-custom"], flat: flat, keys: Object.keys(b).sort() } });`),
    );
    const r = await s.inst.run(["tool", "run", "fetcher", "--args", "{}"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      a: { status: 201, body: '{"ok":true}' },
      b: { status: 404, body: "not here", custom: "yes", flat: true, keys: ["body", "headers", "status"] },
    });
    expect(api.seen[0]).toMatchObject({ method: "POST", url: "/things", body: "raw body, not JSON {" });
    expect(api.seen[0]!.headers["x-token"]).toBe("t0k");
    expect(api.seen[0]!.headers["content-type"]).toBe("text/plain");
    expect(api.seen[1]).toMatchObject({ method: "GET", url: "/missing" });
  });

  test("timeout_ms bounds the wait: the call throws, and the tool can catch it", async () => {
    const api = await startHttp(() => ({ status: 200, body: "late" }));
    http!.removeAllListeners("request");
    http!.on("request", () => {
      // never answers
    });
    s = await scenario();
    s.inst.tool(
      "slow",
      toolSource(
        `try { ctx.http.fetch("${api.url}/", { timeout_ms: 200 }); return "answered"; } catch (e) { return { text: "caught: " + e.message, isError: true }; }`,
      ),
    );
    const r = await s.inst.run(["tool", "run", "slow", "--args", "{}"], { killAfterMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith("caught: ")).toBe(true);
  });
});

describe("tools.md: ctx.system", () => {
  test("exec runs through the shell with cwd, env and timeout_ms; returns { code, stdout, stderr }; code is -1 when a signal killed it", async () => {
    s = await scenario();
    mkdirSync(join(s.inst.workspace, "inner"));
    s.inst.tool(
      "sys",
      toolSource(`const out = {};
      out.pipeline = ctx.system.exec("printf 'a\\nb\\n' | wc -l | tr -d ' '; echo oops >&2; exit 4");
      out.cwdEnv = ctx.system.exec("pwd; echo $GREETING", { cwd: "inner", env: { GREETING: "hola" } });
      out.killed = ctx.system.exec("kill -9 $$");
      out.timeout = ctx.system.exec("sleep 30", { timeout_ms: 100 });
      out.which = [ctx.system.which("sh"), ctx.system.which("surely-not-an-executable-here")];
      return JSON.stringify(out);`),
    );
    const r = await s.inst.run(["tool", "run", "sys", "--args", "{}"], { killAfterMs: 30_000 });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.pipeline).toMatchObject({ code: 4, stdout: "2\n", stderr: "oops\n" });
    expect(out.cwdEnv).toMatchObject({ code: 0, stdout: `${join(s.inst.workspace, "inner")}\nhola\n`, stderr: "" });
    expect(out.killed.code).toBe(-1);
    expect(out.timeout.code).toBe(-1);
    expect(out.which[0].startsWith("/")).toBe(true);
    expect(out.which[0].endsWith("/sh")).toBe(true);
    expect(out.which[1]).toBeNull();
  });

  test("exec's output is streamed to the front end live, and never capped there", async () => {
    s = await scenario({ agentFrontmatter: "tools: [build]" });
    const big = 400 * 1024;
    s.inst.tool(
      "build",
      toolSource(`const r = ctx.system.exec("echo step-one-started; while [ ! -f go ]; do sleep 0.05; done; head -c ${big} /dev/zero | tr '\\\\0' y; echo; echo step-two-done >&2");
      return "code " + r.code + ", " + r.stdout.length + " characters";`),
    );
    s.server.script({ toolCalls: [{ id: "c1", name: "build", arguments: {} }] }, { text: "ok" });
    const run = s.inst.start(["run", "-a", "coder", "-p", "x"]);
    await waitFor(() => run.stderr().includes("step-one-started"), 20_000, "the command's first line while it runs");
    writeFileSync(join(s.inst.workspace, "go"), "");
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("y".repeat(big));
    expect(r.stderr).toContain("step-two-done");
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      `code 0, ${"step-one-started\n".length + big + 1} characters`,
    ]);
  });
});

describe("tools.md: output cap (256 KiB, cut on a rune boundary)", () => {
  for (const [what, unit] of [
    ["four-byte runes", "😀"],
    ["three-byte runes", "€"],
  ] as const) {
    test(`a string made of ${what} is cut between runes, within 256 KiB; an error result too`, async () => {
      s = await scenario({ agentFrontmatter: "tools: [long, longerr]" });
      s.inst.tool("long", toolSource(`return "ab" + "${unit}".repeat(100000);`));
      s.inst.tool("longerr", toolSource(`return { text: "c" + "${unit}".repeat(100000), isError: true };`));
      s.server.script(
        {
          toolCalls: [
            { id: "c1", name: "long", arguments: {} },
            { id: "c2", name: "longerr", arguments: {} },
          ],
        },
        { text: "ok" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect(r.code).toBe(0);
      const sent = toolResultsOf(s.server.requests[1]!);
      for (const [i, text] of sent.entries()) {
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256 * 1024);
        expect(Buffer.byteLength(text)).toBeGreaterThan(255 * 1024);
        expect(text).not.toContain("\uFFFD");
        expect(text.startsWith(i === 0 ? `ab${unit}` : `c${unit}`)).toBe(true);
        // Re-encoding gives back the same text: no half rune, no lone surrogate.
        expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(text)).toBe(false);
      }
      expect(results(r.stdout).map((e) => e.isError)).toEqual([false, true]);
    });
  }

  test("a result of exactly 256 KiB is not cut", async () => {
    s = await scenario();
    s.inst.tool("exact", toolSource(`return "z".repeat(${256 * 1024});`));
    const r = await s.inst.run(["tool", "run", "exact", "--args", "{}"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${"z".repeat(256 * 1024)}\n`);
  });
});

describe("tools.md: fresh state", () => {
  test("nothing persists in memory between calls: module variables and globals start over; a file remembers", async () => {
    s = await scenario({ agentFrontmatter: "tools: [counter]" });
    s.inst.tool(
      "counter",
      `let calls = 0;
module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) {
  calls++; globalThis.seen = (globalThis.seen || 0) + 1; require("node:os").counterMark = (require("node:os").counterMark || 0) + 1;
  const before = ctx.file.exists("count") ? Number(ctx.file.read("count")) : 0;
  ctx.file.write("count", String(before + 1));
  return calls + "," + globalThis.seen + "," + require("node:os").counterMark + "," + (before + 1);
} };
`,
    );
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "counter", arguments: {} },
          { id: "c2", name: "counter", arguments: {} },
        ],
      },
      { toolCalls: [{ id: "c3", name: "counter", arguments: {} }] },
      { text: "ok" },
    );
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["1,1,1,1", "1,1,1,2"]);
    expect(toolResultsOf(s.server.requests[2]!)).toEqual(["1,1,1,1", "1,1,1,2", "1,1,1,3"]);
  });
});

describe("tools.md: the examples", () => {
  test("read a JSON file and return one field", async () => {
    s = await scenario({ agentFrontmatter: "tools: [json-field]" });
    s.inst.tool("json-field", JSON_FIELD);
    s.inst.file("package.json", JSON.stringify({ name: "demo", version: "1.2.3", scripts: { test: "bun test" } }));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "json-field", arguments: { path: "package.json", field: "version" } },
          { id: "c2", name: "json-field", arguments: { path: "package.json", field: "scripts" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(['"1.2.3"', '{"test":"bun test"}']);
  });

  test("ask the user before doing something risky: refused without -y, git push with -y", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    const { execFileSync } = await import("node:child_process");
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, {
        cwd,
        encoding: "utf8",
        env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
      }).trim();
    const remote = join(s.inst.root, "remote.git");
    git(s.inst.root, "init", "--quiet", "--bare", remote);
    git(s.inst.workspace, "init", "--quiet", "-b", "main");
    s.inst.file("a.txt", "a");
    git(s.inst.workspace, "add", "a.txt");
    git(s.inst.workspace, "-c", "user.email=a@b.invalid", "-c", "user.name=A", "commit", "--quiet", "-m", "one");
    git(s.inst.workspace, "remote", "add", "origin", remote);
    git(s.inst.workspace, "config", "push.default", "current");
    s.server.script({ toolCalls: [{ id: "c1", name: "publish", arguments: {} }] }, { text: "ok" });
    const no = await s.inst.run(["run", "-a", "coder", "-p", "publish"], {
      env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
    expect(no.code).toBe(0);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["cancelled by the user"]);
    expect(no.stderr).toContain("tool failed: cancelled by the user");
    s.server.script({ toolCalls: [{ id: "c1", name: "publish", arguments: {} }] }, { text: "ok" });
    const yes = await s.inst.run(["run", "-a", "coder", "-p", "publish", "-y"], {
      env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
    expect(yes.code).toBe(0);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["pushed"]);
    expect(git(remote, "rev-parse", "main")).toBe(git(s.inst.workspace, "rev-parse", "HEAD"));
    // A push that fails: git's stderr is the error result.
    git(s.inst.workspace, "remote", "set-url", "origin", join(s.inst.root, "gone.git"));
    s.server.script({ toolCalls: [{ id: "c1", name: "publish", arguments: {} }] }, { text: "ok" });
    const failed = await s.inst.run(["run", "-a", "coder", "-p", "publish", "-y", "--json"], {
      env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
    const [result] = results(failed.stdout);
    expect(result!.isError).toBe(true);
    expect(result!.text as string).toContain("gone.git");
  });

  test("call an API with ctx.http.fetch (the API's address pointed at a local stand-in)", async () => {
    const api = await startHttp(
      (req): HttpAnswer =>
        req.url === "/repos/varavelio/rienda/releases/latest"
          ? {
              status: 200,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ tag_name: "v2.0.1" }),
            }
          : { status: 404, body: '{"message":"Not Found"}' },
    );
    s = await scenario({ agentFrontmatter: "tools: [release-tag]" });
    s.inst.tool("release-tag", RELEASE_TAG.replace("https://api.github.com", api.url));
    s.server.script(
      {
        toolCalls: [
          { id: "c1", name: "release-tag", arguments: { repo: "varavelio/rienda" } },
          { id: "c2", name: "release-tag", arguments: { repo: "nobody/nothing" } },
        ],
      },
      { text: "ok" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(results(r.stdout).map((e) => [e.text, e.isError])).toEqual([
      ["v2.0.1", false],
      ["HTTP 404", true],
    ]);
  });
});

describe("tools.md: parameters is a JSON Schema, passed to the provider verbatim", () => {
  // 2020-12 is the current JSON Schema (and what MCP servers declare); 2019-09 and draft-06 are JSON Schemas too.
  const versions = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-06/schema#",
  ];

  test("a schema naming its version in $schema is a tool: listed without a diagnostic, sent verbatim, its arguments checked", async () => {
    s = await scenario({ agentFrontmatter: `tools: [${versions.map((_, i) => `v${i}`).join(", ")}]` });
    const parameters = versions.map(($schema) => ({
      $schema,
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
      additionalProperties: false,
    }));
    for (const [i, p] of parameters.entries())
      s!.inst.tool(`v${i}`, toolSource('return "read " + args.path;', JSON.stringify(p)));
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stderr).toBe("");
    for (const [i] of versions.entries()) expect(list.stdout).toContain(`v${i}\n`);
    s.server.script(
      {
        toolCalls: versions.flatMap((_, i) => [
          { id: `ok${i}`, name: `v${i}`, arguments: { path: "a.txt" } },
          { id: `bad${i}`, name: `v${i}`, arguments: { path: 5 } },
        ]),
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(versions.map((_, i) => `v${i}`));
    const sent = (s.server.requests[0]!.body as { tools: { function: { parameters: unknown } }[] }).tools.map(
      (t) => t.function.parameters,
    );
    expect(sent).toEqual(parameters);
    const results = jsonEvents(r.stdout).filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.id, e.isError])).toEqual(
      versions.flatMap((_, i) => [
        [`ok${i}`, false],
        [`bad${i}`, true],
      ]),
    );
    expect(toolResultsOf(s.server.requests[1]!).filter((_, i) => i % 2 === 0)).toEqual(
      versions.map(() => "read a.txt"),
    );
    for (const e of results.filter((e) => e.isError)) expect(e.text as string).toContain("path: must be string");
  });
});

describe("tools.md: ctx.file.read returns the file content as text; exec returns what the command printed", () => {
  test("a leading byte order mark is content: read keeps it (a read and write back leaves the file as it was), exec's stdout and stderr keep it", async () => {
    s = await scenario();
    const bytes = Buffer.from("\uFEFFname,value\n", "utf8");
    writeFileSync(join(s.inst.workspace, "table.csv"), bytes);
    s.inst.tool(
      "bom",
      toolSource(`const text = ctx.file.read("table.csv");
      ctx.file.write("copy.csv", text);
      const e = ctx.system.exec("cat table.csv; cat table.csv >&2");
      return JSON.stringify({ read: text, stdout: e.stdout, stderr: e.stderr });`),
    );
    const r = await s.inst.run(["tool", "run", "bom", "--args", "{}"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      read: "\uFEFFname,value\n",
      stdout: "\uFEFFname,value\n",
      stderr: "\uFEFFname,value\n",
    });
    expect(Buffer.compare(readFileSync(join(s.inst.workspace, "copy.csv")), bytes)).toBe(0);
  });
});
