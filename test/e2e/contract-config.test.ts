/**
 * Contract §1-§3 (files, config.yaml, agents) checked word for word against
 * the binary where no other e2e test states them literally: strict YAML
 * errors naming the file, `${ENV}` reaching the wire, the model id defaulting
 * to its alias, the first-`/` split, compaction's defaults, ctx.config as a
 * copy of the whole document, which directories hold tools and agents, and
 * agent files with a BOM and CRLF. Written from the contract alone by the
 * spec audit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, systemOf, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const ECHO_TOOL = 'module.exports = { description: "d", parameters: { type: "object" }, execute() { return "ran"; } };';

describe("config.yaml is strict (contract §2)", () => {
  test("unknown keys, several documents and an empty file are errors naming the file (and the key), before any request", async () => {
    s = await scenario();
    const file = s.inst.riendaPath("config.yaml");
    const good = `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${s.server.url}/v1\n    models: { m: { id: wire-model } }\n`;
    const cases: [string, string[]][] = [
      [`${good}colour: red\n`, ["colour"]],
      [good.replace("    models:", "    modles: {}\n    models:"), ["providers.p.modles"]],
      [good.replace("{ id: wire-model }", "{ id: wire-model, temprature: 1 }"), ["providers.p.models.m.temprature"]],
      [`${good}---\n${good}`, []],
      ["", []],
      ["\n# nothing but a comment\n", []],
    ];
    for (const [text, keys] of cases) {
      s.inst.config(text);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toStartWith(`rienda: ${file}: `);
      for (const key of keys) expect(r.stderr).toContain(key);
    }
    expect(s.server.requests).toHaveLength(0);
  });

  test("providers: at least one; a provider name must not contain /; protocol needs base_url; preset and protocol exclude each other", async () => {
    s = await scenario();
    const file = s.inst.riendaPath("config.yaml");
    for (const [text, words] of [
      ["providers: {}\n", "providers"],
      [
        "providers:\n  a/b:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    models: { m: {} }\n",
        "providers.a/b",
      ],
      ["providers:\n  p:\n    protocol: openai_chat_completions\n    models: { m: {} }\n", "providers.p.base_url"],
      [
        "providers:\n  p:\n    preset: ollama\n    protocol: openai_chat_completions\n    models: { m: {} }\n",
        "providers.p",
      ],
      ["providers:\n  p:\n    models: { m: {} }\n", "providers.p"],
    ] as const) {
      s.inst.config(text);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toStartWith(`rienda: ${file}: ${words}`);
    }
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("providers and models (contract §2)", () => {
  test('new: "${ENV_NAME}" in api_key expands from the environment, for Bearer and x-api-key alike', async () => {
    s = await scenario();
    const base = s.server.url;
    s.inst.config(
      `providers:\n  chat:\n    protocol: openai_chat_completions\n    base_url: ${base}/v1\n    api_key: "\${CHAT_KEY}"\n    models: { m: {} }\n` +
        `  claude:\n    protocol: anthropic\n    base_url: ${base}\n    api_key: \${CLAUDE_KEY}\n    models: { m: {} }\n`,
    );
    s.server.script({ text: "one" }, { text: "two" });
    const env = { CHAT_KEY: "sk-from-env", CLAUDE_KEY: "ant-from-env" };
    expect((await s.inst.run(["run", "-a", "coder", "-m", "chat/m", "-p", "x"], { env })).code).toBe(0);
    expect((await s.inst.run(["run", "-a", "coder", "-m", "claude/m", "-p", "x"], { env })).code).toBe(0);
    expect(s.server.requests[0]!.headers.authorization).toBe("Bearer sk-from-env");
    expect(s.server.requests[1]!.headers["x-api-key"]).toBe("ant-from-env");
  });

  test("an unset variable in the api_key of the model used stops the run naming the variable, before any request", async () => {
    s = await scenario();
    s.inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${s.server.url}/v1\n    api_key: \${RIENDA_AUDIT_UNSET_KEY}\n    models: { m: {} }\n`,
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("RIENDA_AUDIT_UNSET_KEY");
    expect(r.stderr).toContain("providers.p.api_key");
    expect(s.server.requests).toHaveLength(0);
  });

  test("an empty api_key sends no credential at all", async () => {
    s = await scenario();
    for (const [protocol, base] of [
      ["openai_chat_completions", `${s.server.url}/v1`],
      ["anthropic", s.server.url],
    ] as const) {
      s.inst.config(
        `providers:\n  p:\n    protocol: ${protocol}\n    base_url: ${base}\n    api_key: ""\n    models: { m: {} }\n`,
      );
      s.server.script({ text: "ok" });
      expect((await s.inst.run(["run", "-a", "coder", "-p", "x"])).code).toBe(0);
      const headers = s.server.requests.at(-1)!.headers;
      expect(headers.authorization).toBeUndefined();
      expect(headers["x-api-key"]).toBeUndefined();
    }
  });

  test("a model's wire id defaults to its alias; a reference splits on the first / (the alias may hold more)", async () => {
    s = await scenario();
    s.inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${s.server.url}/v1\n    models:\n      llama3.1:8b: {}\n      vendor/family/model: {}\n      aliased: { id: the-wire-id }\n`,
    );
    s.server.script({ text: "1" }, { text: "2" }, { text: "3" });
    for (const ref of ["p/llama3.1:8b", "p/vendor/family/model", "p/aliased"]) {
      expect((await s.inst.run(["run", "-a", "coder", "-m", ref, "-p", "x"])).code).toBe(0);
    }
    expect(s.server.requests.map((r) => (r.body as { model: string }).model)).toEqual([
      "llama3.1:8b",
      "vendor/family/model",
      "the-wire-id",
    ]);
  });

  test('errors: unknown provider "x", unknown model "m" in provider "p", for the agent\'s model and -m alike', async () => {
    s = await scenario();
    const r1 = await s.inst.run(["run", "-a", "coder", "-m", "x/m", "-p", "x"]);
    expect(r1.stderr).toStartWith('rienda: unknown provider "x"');
    s.inst.agent("coder", "---\ndescription: d\nmodel: p/ghost\n---\nb\n");
    const r2 = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r2.stderr).toStartWith('rienda: unknown model "ghost" in provider "p"');
    expect([r1.code, r2.code]).toEqual([1, 1]);
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("compaction defaults (contract §2: enabled true, reserve_tokens 16384, keep_recent_tokens 20000)", () => {
  /** A session of `turns` past exchanges written by hand in §6's format, each answer about `answerTokens` tokens. */
  function writeSession(
    inst: Scenario["inst"],
    id: string,
    turns: number,
    answerTokens: number,
    lastInput: number,
  ): void {
    const entries: Record<string, unknown>[] = [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2026-01-01T00:00:00.000Z",
        agent: "coder",
        model: "p/m",
        workdir: inst.workspace,
      },
    ];
    let parent: string | null = null;
    for (let t = 1; t <= turns; t++) {
      const user = `u${t}`;
      const answer = `a${t}`;
      entries.push({
        kind: "message",
        id: user,
        parentId: parent,
        createdAt: "2026-01-01T00:00:01.000Z",
        role: "user",
        blocks: [{ type: "text", text: `question ${t}` }],
      });
      entries.push({
        kind: "message",
        id: answer,
        parentId: user,
        createdAt: "2026-01-01T00:00:02.000Z",
        role: "assistant",
        blocks: [{ type: "text", text: `answer ${t} ${"w".repeat(answerTokens * 4)}` }],
        responseModel: "wire-model",
        responseStopReason: "end_turn",
        responseUsage: { inputTokens: t === turns ? lastInput : 10, outputTokens: 10 },
      });
      parent = answer;
    }
    inst.write(
      join(inst.riendaPath("sessions"), "handmade-00000000", `${id}.jsonl`),
      entries.map((e) => JSON.stringify(e)).join("\n") + "\n",
    );
  }

  test("with no compaction block, a prompt that leaves less than 16384 tokens of the window free is compacted; one that leaves more is not", async () => {
    // Three exchanges of about 8,000 tokens each: about 24,100 tokens of history, more than the
    // 20,000 kept, so there is something to condense. The window is 40,600: the history alone
    // leaves more than 16,384 free; the size the provider reported in the tight case does not.
    s = await scenario({ modelExtra: "        context_window: 40600" });
    writeSession(s.inst, "01jfits0000000000000000000", 3, 8000, 10);
    s.server.script({ text: "no compaction needed" });
    const fits = await s.inst.run(["run", "-s", "01jfits0000000000000000000", "-p", "next"]);
    expect(fits.code).toBe(0);
    expect(fits.stderr).not.toContain("compacted");
    expect(s.server.requests).toHaveLength(1);

    writeSession(s.inst, "01jtight000000000000000000", 3, 8000, 24300);
    s.server.script({ text: "SUMMARY" }, { text: "after compaction" });
    const tight = await s.inst.run(["run", "-s", "01jtight000000000000000000", "-p", "next"]);
    expect(tight.code).toBe(0);
    expect(tight.stderr).toContain("compacted the conversation");
    expect(s.server.requests).toHaveLength(3);
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("SUMMARY");
  });

  test("the newest ~20000 tokens are kept word for word, cut at the start of a user turn", async () => {
    s = await scenario({ modelExtra: "        context_window: 40000" });
    // Five exchanges of about 6,000 tokens each: keeping 20,000 tokens reaches back into exchange 2,
    // whose answer is the cut point; the kept part starts at the next user turn, question 3.
    writeSession(s.inst, "01jlong0000000000000000000", 5, 6000, 31000);
    s.server.script({ text: "SUMMARY of the first exchanges" }, { text: "done" });
    const r = await s.inst.run(["run", "-s", "01jlong0000000000000000000", "-p", "question 6"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("compacted the conversation");
    const summarized = JSON.stringify(s.server.requests[0]!.body);
    expect(summarized).toContain("question 1");
    expect(summarized).toContain("question 2");
    expect(summarized).not.toContain("question 3");
    const next = JSON.stringify(s.server.requests[1]!.body);
    expect(next).toContain("SUMMARY of the first exchanges");
    expect(next).not.toContain("question 2");
    for (const t of [3, 4, 5, 6]) expect(next).toContain(`question ${t}`);
    const compaction = readEntries(sessionFile(s.inst.home, "01jlong0000000000000000000")).find(
      (e) => e.kind === "compaction",
    )!;
    expect(compaction.keptId).toBe("u3");
  });
});

describe("ctx.config (contract §2: the whole parsed document, a deep copy)", () => {
  test("a tool sees every top-level key of the file, and what one call does to its copy never reaches the next", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [peek]",
      configExtra: "compaction: { enabled: false }\nconfig:\n  peek: { list: [1, 2], nested: { deep: true } }",
    });
    s.inst.tool(
      "peek",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) {
        const seen = JSON.stringify({ keys: Object.keys(ctx.config), peek: ctx.config.config.peek, model: ctx.config.providers.p.models.m });
        try { ctx.config.config.peek.list.push(3); ctx.config.config.peek.nested.deep = false; delete ctx.config.providers; } catch {}
        return seen;
      } };`,
    );
    s.server.script(
      { toolCalls: [{ name: "peek", arguments: {} }] },
      { toolCalls: [{ name: "peek", arguments: {} }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const first = JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!);
    expect(first).toEqual({
      keys: ["providers", "compaction", "config"],
      peek: { list: [1, 2], nested: { deep: true } },
      model: { id: "wire-model" },
    });
    const results = toolResultsOf(s.server.requests[2]!);
    expect(JSON.parse(results[1]!)).toEqual(first);
  });

  test("as parsed: ${NAME} is expanded for the request's api_key, while the document a tool reads holds the reference (no secret reaches tools) and a Go-era ${ in the config block is text", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [peek]",
      configExtra: 'config:\n  peek: { greeting: "Hello ${name}", broken: "${not closed" }',
    });
    // The scenario's key, given as a reference instead.
    s.inst.config(
      readFileSync(s.inst.riendaPath("config.yaml"), "utf8").replace("api_key: test-key", 'api_key: "${PEEK_KEY}"'),
    );
    s.inst.tool(
      "peek",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return JSON.stringify({ key: ctx.config.providers.p.api_key, peek: ctx.config.config.peek }); } };`,
    );
    s.server.script({ toolCalls: [{ name: "peek", arguments: {} }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"], { env: { PEEK_KEY: "s3cret-value" } });
    expect(r.code).toBe(0);
    expect(s.server.requests[0]!.headers.authorization).toBe("Bearer s3cret-value");
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual({
      key: "${PEEK_KEY}",
      peek: { greeting: "Hello ${name}", broken: "${not closed" },
    });
  });
});

describe("files (contract §1, §3)", () => {
  test("tool directories that are hidden or have no index.js are skipped", async () => {
    s = await scenario({ agentFrontmatter: "tools: [visible]" });
    s.inst.tool("visible", ECHO_TOOL);
    s.inst.tool(".hidden", ECHO_TOOL);
    mkdirSync(s.inst.riendaPath("tools", "no-index"), { recursive: true });
    writeFileSync(s.inst.riendaPath("tools", "no-index", "main.js"), ECHO_TOOL);
    const list = await s.inst.run(["tool", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("visible");
    expect(list.stdout).not.toContain("hidden");
    expect(list.stdout).not.toContain("no-index");
    expect(list.stderr).toBe("");
    for (const name of [".hidden", "no-index"]) {
      s.inst.agent("coder", `---\ndescription: d\nmodel: p/m\ntools: ["${name}"]\n---\nb\n`);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(1);
    }
    expect(s.server.requests).toHaveLength(0);
  });

  test("agents are global only: an agents folder in the workspace is never read", async () => {
    s = await scenario();
    s.inst.file(".rienda/agents/local.md", "---\ndescription: d\nmodel: p/m\n---\nfrom the workspace\n");
    s.inst.file("agents/local.md", "---\ndescription: d\nmodel: p/m\n---\nfrom the workspace\n");
    const r = await s.inst.run(["run", "-a", "local", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent "local"');
    expect(s.server.requests).toHaveLength(0);
  });

  test("an agent file with a BOM and CRLF line ends loads; its trimmed body is the system prompt; config reaches ctx.agent.config", async () => {
    s = await scenario();
    s.inst.agent(
      "coder",
      "\uFEFF---\r\ndescription: d\r\nmodel: p/m\r\ntools: [cfg]\r\nconfig:\r\n  cfg: { level: 3 }\r\n  other: {}\r\n---\r\n\r\n  First line.\r\nSecond line.  \r\n\r\n",
    );
    s.inst.tool(
      "cfg",
      'module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return JSON.stringify(ctx.agent.config); } };',
    );
    s.server.script({ toolCalls: [{ name: "cfg", arguments: {} }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(systemOf(s.server.requests[0]!)).toBe("First line.\nSecond line.");
    expect(JSON.parse(toolResultsOf(s.server.requests[1]!)[0]!)).toEqual({ cfg: { level: 3 }, other: {} });
  });

  test("system prompt = agent body, a blank line, ---, then AGENTS.md (else CLAUDE.md)", async () => {
    s = await scenario({ agentBody: "Agent body." });
    s.inst.file("AGENTS.md", "Agents rules.\n");
    s.inst.file("CLAUDE.md", "Claude rules.\n");
    s.server.script({ text: "1" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(systemOf(s.server.requests[0]!)).toBe("Agent body.\n\n---\n\nAgents rules.");
  });

  test("every run without -s creates a new session; -s continues the one named", async () => {
    s = await scenario();
    s.server.script({ text: "1" }, { text: "2" }, { text: "3" });
    const a = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "x"])).stderr);
    const b = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "y"])).stderr);
    const c = sessionIdFrom((await s.inst.run(["run", "-s", a, "-p", "z"])).stderr);
    expect(a).not.toBe(b);
    expect(c).toBe(a);
  });
});
