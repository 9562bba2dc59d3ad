/**
 * A ~/.rienda written for today's Go Rienda (go-current.md), run by ours:
 * no config.yaml, a provider module, credentials.json, state.json, an agent
 * without a model, a Go session file with switch entries; and a mixed home
 * (config.yaml providers beside a module). Requests are asserted as the
 * scripted provider received them: URL, headers, key, session header, body.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";

let server: ProviderServer | undefined;
let inst: Instance | undefined;
afterEach(async () => {
  await server?.close();
  inst?.dispose();
  server = undefined;
  inst = undefined;
});

/** Built-in modules never reach the network in these tests. */
const OFFLINE = { RIENDA_MODELS_DEV_URL: "http://127.0.0.1:9/api.json" };

/** The acme module: chat completions with a session header and headers; an Anthropic model and a Responses model by per-model overrides. */
function acmeModule(url: string): string {
  return `module.exports = function (ctx) {
  return {
    protocol: "openai_chat_completions",
    base_url: "${url}/v1",
    session_header: "x-acme-session",
    headers: { "X-Acme-Team": "core", "X-Acme-Region": "eu" },
    auth: "api_key",
    models: [
      { id: "fast", context_window: 128000, max_output_tokens: 4000, reasoning: true, thinking_modes: [{ level: "low", max_tokens: 0 }, { level: "high", max_tokens: 0 }] },
      { id: "claude", context_window: 200000, reasoning: true, temperature: 0.5, thinking_modes: [{ level: "deep", max_tokens: 4096 }, { level: "none-ish", max_tokens: 0 }],
        protocol: "anthropic", base_url: "${url}/anthropic", headers: { "X-Acme-Team": "claude" } },
      { id: "resp", context_window: 64000, reasoning: true, thinking_modes: [{ level: "high", max_tokens: 0 }], protocol: "openai_responses" },
    ],
  };
};
`;
}

async function goHome(
  options: { state?: object; credentials?: object } = {},
): Promise<{ inst: Instance; server: ProviderServer }> {
  server = await startProviderServer();
  inst = new Instance();
  inst.write(inst.riendaPath("providers", "acme", "index.js"), acmeModule(server.url));
  inst.write(
    inst.riendaPath("credentials.json"),
    JSON.stringify(options.credentials ?? { acme: { api_key: "sk-acme-1" } }),
  );
  if (options.state) inst.write(inst.riendaPath("state.json"), JSON.stringify(options.state));
  inst.agent("bot", "---\ndescription: A Go agent\ntools: []\n---\nBe brief.\n");
  return { inst, server };
}

const run = (i: Instance, args: string[]) => i.run(args, { env: OFFLINE });
const body = (s: ProviderServer, i = 0) => s.requests[i]!.body as Record<string, unknown>;
const sessionOf = (stderr: string) => /session: (\S+)/.exec(stderr)![1]!;

describe("a current-Go ~/.rienda", () => {
  test("no config.yaml: state.json's model, the key of credentials.json, the module's headers and session header, byte for byte", async () => {
    const { inst, server } = await goHome({ state: { last_model: "acme/fast", last_thinking: {} } });
    server.script({ text: "hi" });
    const r = await run(inst, ["run", "-a", "bot", "-p", "hello"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("hi\n");
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-acme-1");
    expect(request.headers["x-acme-session"]).toBe(sessionOf(r.stderr));
    expect(request.headers["x-acme-team"]).toBe("core");
    expect(request.headers["x-acme-region"]).toBe("eu");
    expect(body(server).model).toBe("fast");
    expect(body(server).max_tokens).toBe(4000);
    expect("reasoning_effort" in body(server)).toBe(false);
  });

  test("--thinking sends the declared level as reasoning_effort; an undeclared one is refused listing the model's levels", async () => {
    const { inst, server } = await goHome();
    server.script({ text: "a" });
    expect((await run(inst, ["run", "-a", "bot", "-m", "acme/fast", "--thinking", "high", "-p", "x"])).code).toBe(0);
    expect(body(server).reasoning_effort).toBe("high");
    const refused = await run(inst, ["run", "-a", "bot", "-m", "acme/fast", "--thinking", "medium", "-p", "x"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'rienda: --thinking medium: acme/fast has no thinking level "medium" (its levels: off, low, high)',
    );
    expect(server.requests).toHaveLength(1);
  });

  test("a per-model Anthropic override: x-api-key, anthropic-version, merged headers, the mode's budget as thinking and no temperature", async () => {
    const { inst, server } = await goHome();
    server.script({ text: "a" });
    const r = await run(inst, ["run", "-a", "bot", "-m", "acme/claude", "--thinking", "deep", "-p", "x"]);
    expect(r.code).toBe(0);
    const request = server.requests[0]!;
    expect(request.path).toBe("/anthropic/v1/messages");
    expect(request.headers["x-api-key"]).toBe("sk-acme-1");
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers["x-acme-team"]).toBe("claude");
    expect(request.headers["x-acme-region"]).toBe("eu");
    expect(body(server).thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect("temperature" in body(server)).toBe(false);
  });

  test("a Responses model gets reasoning.effort", async () => {
    const { inst, server } = await goHome();
    server.script({ text: "a" });
    expect((await run(inst, ["run", "-a", "bot", "-m", "acme/resp", "--thinking", "high", "-p", "x"])).code).toBe(0);
    expect(server.requests[0]!.path).toBe("/v1/responses");
    expect(body(server).reasoning).toMatchObject({ effort: "high" });
  });

  test("a module with auth api_key and no key: not authenticated, exit 1, before any request", async () => {
    const { inst, server } = await goHome({ credentials: {} });
    const r = await run(inst, ["run", "-a", "bot", "-m", "acme/fast", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rienda: provider acme is not authenticated; run rienda auth");
    expect(server.requests).toHaveLength(0);
  });

  test("a Go session file with switch entries continues with its branch's model and thinking level", async () => {
    const { inst, server } = await goHome();
    const id = "01kgosession00000000000000a";
    const t = "2026-12-01T10:00:00Z";
    const lines = [
      { kind: "header", version: 1, id, createdAt: t, agent: "bot", model: "acme/fast", workdir: inst.workspace },
      {
        kind: "message",
        id: "m1",
        parentId: null,
        createdAt: t,
        role: "user",
        blocks: [{ type: "text", text: "first" }],
      },
      {
        kind: "message",
        id: "m2",
        parentId: "m1",
        createdAt: t,
        role: "assistant",
        blocks: [{ type: "text", text: "one" }],
      },
      { kind: "model", id: "s1", parentId: "m2", createdAt: t, modelRef: "acme/claude", previousModelRef: "acme/fast" },
      { kind: "thinking", id: "s2", parentId: "s1", createdAt: t, thinkingLevel: "deep" },
      {
        kind: "message",
        id: "m3",
        parentId: "s2",
        createdAt: t,
        role: "user",
        blocks: [{ type: "text", text: "second" }],
      },
      {
        kind: "message",
        id: "m4",
        parentId: "m3",
        createdAt: t,
        role: "assistant",
        blocks: [{ type: "text", text: "two" }],
      },
    ];
    const dir = inst.riendaPath("sessions", "go");
    inst.write(`${dir}/${id}.jsonl`, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    server.script({ text: "three" });
    const r = await run(inst, ["run", "-s", id, "-p", "third"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(server.requests[0]!.path).toBe("/anthropic/v1/messages");
    expect(body(server).thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    const messages = body(server).messages as { role: string }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  });

  test("modules that throw, return junk or break a rule are each skipped with one line; the others work", async () => {
    const { inst, server } = await goHome({ state: {} });
    inst.write(
      inst.riendaPath("providers", "thrower", "index.js"),
      "module.exports = function () { throw new Error('no luck'); };",
    );
    inst.write(inst.riendaPath("providers", "junk", "index.js"), "module.exports = function () { return 42; };");
    inst.write(
      inst.riendaPath("providers", "nourl", "index.js"),
      "module.exports = function () { return { protocol: 'anthropic', models: [{ id: 'x', context_window: 1 }] }; };",
    );
    inst.write(
      inst.riendaPath("providers", "dup", "index.js"),
      "module.exports = function () { return { protocol: 'anthropic', base_url: 'http://127.0.0.1:9', auth: 'none', models: [{ id: 'x', context_window: 1 }, { id: 'x', context_window: 1 }] }; };",
    );
    inst.write(
      inst.riendaPath("providers", "badauth", "index.js"),
      "module.exports = function () { return { protocol: 'anthropic', base_url: 'http://127.0.0.1:9', auth: 'oauth', models: [] }; };",
    );
    const models = await run(inst, ["models"]);
    expect(models.code).toBe(1);
    expect(models.stderr).toContain('rienda: provider "thrower": module threw: no luck');
    expect(models.stderr).toContain('rienda: provider "junk": module returned a number');
    expect(models.stderr).toContain('rienda: provider "nourl": base_url is required');
    expect(models.stderr).toContain('rienda: provider "dup": duplicate model id "x"');
    expect(models.stderr).toContain('rienda: provider "badauth": unknown auth "oauth" (accepted: api_key, none)');
    expect(models.stdout).toContain("acme/fast");
    server.script({ text: "fine" });
    const r = await run(inst, ["run", "-a", "bot", "-m", "acme/fast", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
  });
});

test("a module's provider that cannot be reached names the module to change, not a config.yaml key", async () => {
  const { inst } = await goHome();
  inst.write(
    inst.riendaPath("providers", "gone", "index.js"),
    "module.exports = function () { return { protocol: 'openai_chat_completions', base_url: 'http://127.0.0.1:9/v1', auth: 'none', models: [{ id: 'x', context_window: 100 }] }; };",
  );
  inst.config(
    "providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    retries: 0\n    models:\n      m: {}\n",
  );
  const r = await run(inst, ["run", "-a", "bot", "-m", "gone/x", "-p", "x"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`change the base_url that ${inst.riendaPath("providers", "gone", "index.js")} returns`);
  expect(r.stderr).not.toContain("providers.gone.base_url");
});

describe("a mixed ~/.rienda: config.yaml providers beside a module", () => {
  async function mixedHome(): Promise<{ inst: Instance; server: ProviderServer; marker: string }> {
    const home = await goHome();
    const marker = home.inst.riendaPath("providers", "acme", "evaluated");
    // The module leaves a mark when it runs, to tell which runs evaluated it.
    home.inst.write(
      home.inst.riendaPath("providers", "acme", "index.js"),
      acmeModule(home.server.url).replace("return {", 'ctx.file.write("evaluated", "yes");\n  return {'),
    );
    home.inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${home.server.url}/old/v1\n    api_key: sk-config\n    models:\n      m: { id: wire-m }\n`,
    );
    home.inst.agent("old", "---\ndescription: An agent of the older generation\nmodel: p/m\n---\nOld.\n");
    return { ...home, marker };
  }

  test("a config.yaml model evaluates no module; a module model evaluates it; both send their own keys", async () => {
    const { inst, server, marker } = await mixedHome();
    server.script({ text: "old" }, { text: "new" });
    const old = await run(inst, ["run", "-a", "old", "-p", "x"]);
    expect(old.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(server.requests[0]!.path).toBe("/old/v1/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-config");
    const fresh = await run(inst, ["run", "-a", "bot", "-m", "acme/fast", "-p", "x"]);
    expect(fresh.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("yes");
    expect(server.requests[1]!.headers.authorization).toBe("Bearer sk-acme-1");
  });

  test("an agent with a model and one without, and a config.yaml provider without api_key taking credentials.json's key", async () => {
    const { inst, server } = await mixedHome();
    inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/old/v1\n    models:\n      m: { id: wire-m }\n`,
    );
    inst.write(
      inst.riendaPath("credentials.json"),
      JSON.stringify({ acme: { api_key: "sk-acme-1" }, p: { api_key: "sk-p-stored" } }),
    );
    server.script({ text: "one" }, { text: "two" });
    expect((await run(inst, ["run", "-a", "old", "-p", "x"])).code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-p-stored");
    const listed = await run(inst, ["run", "-a", "bot", "-p", "x"]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(
      'agent "bot" names no model: choose one with -m provider/model (offered: acme/claude, acme/fast, acme/resp, p/m)',
    );
    expect((await run(inst, ["run", "-a", "bot", "-m", "p/m", "-p", "x"])).code).toBe(0);
    expect(body(server, 1).model).toBe("wire-m");
  });
});
