import { afterEach, describe, expect, test } from "bun:test";
import { PROTOCOLS, scenario, systemOf, toolNamesOf, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("rienda run", () => {
  for (const protocol of PROTOCOLS) {
    test(`prints only the answer on stdout and the session on stderr (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "Hello from the model." });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "say hello"]);
      expect(r.stderr.split("\n")[0]).toMatch(/^session: [0-9a-z]+$/);
      expect(r.stdout).toBe("Hello from the model.\n");
      expect(r.code).toBe(0);
      expect(s.server.requests).toHaveLength(1);
      const request = s.server.requests[0]!;
      expect(request.protocol).toBe(protocol);
      expect((request.body as { model: string }).model).toBe("wire-model");
      expect(systemOf(request)).toBe("You are a test agent.");
      expect(toolNamesOf(request)).toBeUndefined();
      expect(JSON.stringify(request.body)).toContain("say hello");
    });
  }

  test("thinking is never printed", async () => {
    s = await scenario({ protocol: "anthropic" });
    s.server.script({ thinking: "secret reasoning", text: "visible" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("visible\n");
    expect(r.stderr).not.toContain("secret reasoning");
  });

  test("-p - reads the prompt from stdin", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "-"], { stdin: "prompt from a pipe\nsecond line" });
    expect(r.code).toBe(0);
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("prompt from a pipe\\nsecond line");
  });

  test("AGENTS.md of the workspace follows the agent body in the system prompt", async () => {
    s = await scenario();
    s.inst.file("AGENTS.md", "Use tabs.\n");
    s.inst.file("CLAUDE.md", "ignored when AGENTS.md exists\n");
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(systemOf(s.server.requests[0]!)).toBe("You are a test agent.\n\n---\n\nUse tabs.");
  });

  test("CLAUDE.md is used when there is no AGENTS.md", async () => {
    s = await scenario();
    s.inst.file("CLAUDE.md", "Claude rules.\n");
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(systemOf(s.server.requests[0]!)).toBe("You are a test agent.\n\n---\n\nClaude rules.");
  });

  test("-C chooses the workspace and -m overrides the model", async () => {
    s = await scenario({ modelExtra: "      other:\n        id: other-wire" });
    s.inst.file("sub/AGENTS.md", "sub rules");
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "-C", "sub", "-m", "p/other"]);
    expect(r.code).toBe(0);
    expect((s.server.requests[0]!.body as { model: string }).model).toBe("other-wire");
    expect(systemOf(s.server.requests[0]!)).toContain("sub rules");
  });

  test("static headers, the session header and the API key are sent", async () => {
    s = await scenario({ providerExtra: "    headers: { X-Title: rienda-test }\n    session_header: X-Session-Id" });
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const sessionId = r.stderr.split("\n")[0]!.replace("session: ", "");
    const headers = s.server.requests[0]!.headers;
    expect(headers["x-title"]).toBe("rienda-test");
    expect(headers["x-session-id"]).toBe(sessionId);
    expect(headers.authorization).toBe("Bearer test-key");
  });

  test("model settings reach the wire", async () => {
    s = await scenario({ modelExtra: "        max_tokens: 1234\n        temperature: 0.5\n        top_p: 0.9" });
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(s.server.requests[0]!.body).toMatchObject({ max_tokens: 1234, temperature: 0.5, top_p: 0.9, stream: true });
  });

  test("stdin is not read as the prompt without -p -, nor at all with --no-stdin", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "--no-stdin", "-p", "from flag"], { stdin: "from stdin" });
    expect(r.code).toBe(0);
    expect(JSON.stringify(s.server.requests[0]!.body)).not.toContain("from stdin");
  });
});

describe("provider settings on the wire", () => {
  test("a local server through a preset with an empty key gets no Authorization header", async () => {
    s = await scenario();
    s.inst.config(
      `providers:\n  local:\n    preset: ollama\n    base_url: ${s.server.url}/v1\n    api_key: ""\n    models:\n      llama: { id: "llama3.1:8b" }\n`,
    );
    s.inst.agent("coder", "---\ndescription: local\nmodel: local/llama\n---\nLocal agent.\n");
    s.server.script({ text: "from ollama" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("from ollama\n");
    const request = s.server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: "llama3.1:8b", stream: true, stream_options: { include_usage: true } });
  });

  test("thinking_level becomes the reasoning effort (chat and responses)", async () => {
    s = await scenario({ modelExtra: "        thinking_level: high" });
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(s.server.requests[0]!.body).toMatchObject({ reasoning_effort: "high" });
    await s.dispose();
    s = await scenario({ protocol: "openai_responses", modelExtra: "        thinking_level: low" });
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(s.server.requests[0]!.body).toMatchObject({ reasoning: { effort: "low" }, store: false });
  });

  test("thinking_max_tokens becomes the Anthropic thinking budget, with the protocol's headers", async () => {
    s = await scenario({ protocol: "anthropic", modelExtra: "        thinking_max_tokens: 2048" });
    s.server.script({ thinking: "hmm", text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const request = s.server.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("test-key");
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 2048 },
      max_tokens: 8192,
      stream: true,
    });
  });
});
