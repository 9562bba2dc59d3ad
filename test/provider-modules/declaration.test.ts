/** The declaration a provider module returns (go-current.md §3): what is kept, and every rule with its exact line. */
import { describe, expect, test } from "bun:test";
import { providersFixture, validDeclaration } from "./support.ts";

const fx = providersFixture();

const ACCEPTED_PROTOCOLS = "(accepted: openai_responses, openai_chat_completions, anthropic)";

/** `validDeclaration()` with its first model replaced by `model` over `{id: "m1", context_window: 128000}`. */
function withModel(model: Record<string, unknown>): Record<string, unknown> {
  return { ...validDeclaration(), models: [{ id: "m1", context_window: 128000, ...model }] };
}

describe("a valid declaration", () => {
  test("becomes ProviderSettings: connection, models by id in order, overrides with headers merged, thinking modes, output caps", async () => {
    fx.home.declaring("acme", {
      protocol: "openai_chat_completions",
      base_url: "https://api.acme.test/v1/",
      session_header: "x-acme-session",
      headers: { "X-Team": "core", "X-Trace": "on" },
      auth: "api_key",
      unknown_field: { ignored: true },
      api_key: "never-read-from-a-module",
      models: [
        {
          id: "acme/large",
          name: "Acme Large",
          context_window: 200000,
          max_output_tokens: 32000,
          reasoning: true,
          thinking_modes: [{ level: "low", max_tokens: 1024 }, { level: "high" }],
          protocol: "anthropic",
          base_url: "https://anthropic.acme.test",
          session_header: "x-other-session",
          headers: { "X-Trace": "off", "X-Model": "large" },
          max_tokens: 8000,
          temperature: 0.2,
          top_p: 0.9,
        },
        { id: "small", context_window: 8192, max_output_tokens: 0, reasoning: false },
        { id: "thinker", context_window: 64000, reasoning: true, thinking_modes: [] },
      ],
    });
    const evaluation = await fx.home.evaluate("acme");
    if (!("provider" in evaluation)) throw new Error(evaluation.problem);
    const { models, ...provider } = evaluation.provider;
    expect(provider).toEqual({
      name: "acme",
      protocol: "openai_chat_completions",
      baseUrl: "https://api.acme.test/v1",
      apiKey: "",
      headers: { "X-Team": "core", "X-Trace": "on" },
      sessionHeader: "x-acme-session",
      unset: [],
      timing: {},
      apiKeySource: { kind: "absent", path: "credentials.json" },
      origin: "module",
      auth: "api_key",
    });
    expect([...models.keys()]).toEqual(["acme/large", "small", "thinker"]);
    expect(models.get("acme/large")).toEqual({
      alias: "acme/large",
      id: "acme/large",
      name: "Acme Large",
      timing: {},
      contextWindow: 200000,
      maxOutputTokens: 32000,
      maxTokens: 8000,
      temperature: 0.2,
      topP: 0.9,
      reasoning: true,
      thinkingModes: [
        { level: "low", maxTokens: 1024 },
        { level: "high", maxTokens: 0 },
      ],
      overrides: {
        protocol: "anthropic",
        baseUrl: "https://anthropic.acme.test",
        sessionHeader: "x-other-session",
        headers: { "X-Team": "core", "X-Trace": "off", "X-Model": "large" },
      },
    });
    expect(models.get("small")).toEqual({
      alias: "small",
      id: "small",
      timing: {},
      contextWindow: 8192,
      reasoning: false,
    });
    expect(models.get("thinker")).toEqual({
      alias: "thinker",
      id: "thinker",
      timing: {},
      contextWindow: 64000,
      reasoning: true,
      thinkingModes: [],
    });
    expect(fx.home.logs).toEqual([]);
  });

  test("auth: absent reads as api_key, none is kept; an empty roster and a model without overrides are legal", async () => {
    fx.home.declaring("keyed", { protocol: "anthropic", base_url: "https://api.keyed.test" });
    fx.home.declaring("local", {
      protocol: "openai_responses",
      base_url: "http://127.0.0.1:8080/v1",
      auth: "none",
      models: [{ id: "m", context_window: 4096 }],
    });
    const keyed = await fx.home.evaluate("keyed");
    const local = await fx.home.evaluate("local");
    if (!("provider" in keyed) || !("provider" in local)) throw new Error("refused");
    expect([keyed.provider.auth, keyed.provider.models.size, keyed.provider.sessionHeader]).toEqual([
      "api_key",
      0,
      undefined,
    ]);
    expect([local.provider.auth, local.provider.protocol, local.provider.models.get("m")?.overrides]).toEqual([
      "none",
      "openai_responses",
      undefined,
    ]);
  });
});

describe("a declaration that breaks a rule is refused with one line naming the provider", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["no protocol", { ...validDeclaration(), protocol: undefined }, `protocol is required ${ACCEPTED_PROTOCOLS}`],
    [
      "an unknown protocol",
      { ...validDeclaration(), protocol: "gemini" },
      `unknown protocol "gemini" ${ACCEPTED_PROTOCOLS}`,
    ],
    [
      "replay, which is config.yaml's only",
      { ...validDeclaration(), protocol: "replay" },
      `unknown protocol "replay" ${ACCEPTED_PROTOCOLS}`,
    ],
    [
      "a protocol that is not a string",
      { ...validDeclaration(), protocol: 3 },
      `unknown protocol 3 ${ACCEPTED_PROTOCOLS}`,
    ],
    ["no base_url", { ...validDeclaration(), base_url: "" }, "base_url is required"],
    [
      "a base_url that is not http(s)",
      { ...validDeclaration(), base_url: "ftp://files.test" },
      `base_url must be an http:// or https:// URL (got "ftp://files.test")`,
    ],
    [
      "a base_url that is not a string",
      { ...validDeclaration(), base_url: 5 },
      "base_url must be a string (it is a number)",
    ],
    ["an unknown auth", { ...validDeclaration(), auth: "oauth" }, `unknown auth "oauth" (accepted: api_key, none)`],
    [
      "an auth that is not a string",
      { ...validDeclaration(), auth: true },
      `unknown auth true (accepted: api_key, none)`,
    ],
    [
      "a bad session_header",
      { ...validDeclaration(), session_header: "x session" },
      `session_header "x session" is not a valid HTTP header name`,
    ],
    [
      "headers as a list",
      { ...validDeclaration(), headers: ["X-A: 1"] },
      "headers must be an object of header names to strings",
    ],
    [
      "a header value that is not a string",
      { ...validDeclaration(), headers: { "X-A": 1 } },
      `headers: "X-A" must be a string (it is a number)`,
    ],
    [
      "a bad header name",
      { ...validDeclaration(), headers: { "bad name": "x" } },
      `headers: "bad name" is not a valid HTTP header name`,
    ],
    [
      "a header value with a line break",
      { ...validDeclaration(), headers: { "X-A": "a\nb" } },
      `headers: "X-A" must not contain line breaks`,
    ],
    ["models as an object", { ...validDeclaration(), models: { m1: {} } }, "models must be a list (it is an object)"],
    [
      "a model that is not an object",
      { ...validDeclaration(), models: [3] },
      "models[0] must be an object (it is a number)",
    ],
    ["a model without id", withModel({ id: undefined }), "models[].id is required"],
    ["a model with an empty id", withModel({ id: "" }), "models[].id is required"],
    ["a model id that is not a string", withModel({ id: 7 }), "models[0].id must be a string (it is a number)"],
    [
      "a duplicate model id",
      {
        ...validDeclaration(),
        models: [
          { id: "x", context_window: 1 },
          { id: "x", context_window: 2 },
        ],
      },
      `duplicate model id "x"`,
    ],
    [
      "no context_window",
      withModel({ context_window: undefined }),
      `model "m1": context_window must be a positive number of tokens`,
    ],
    [
      "a zero context_window",
      withModel({ context_window: 0 }),
      `model "m1": context_window must be a positive number of tokens`,
    ],
    [
      "a negative context_window",
      withModel({ context_window: -1 }),
      `model "m1": context_window must be a positive number of tokens`,
    ],
    [
      "a fractional context_window",
      withModel({ context_window: 1.5 }),
      `model "m1": context_window must be a positive number of tokens`,
    ],
    [
      "a context_window as text",
      withModel({ context_window: "128k" }),
      `model "m1": context_window must be a positive number of tokens`,
    ],
    [
      "a model's unknown protocol",
      withModel({ protocol: "gemini" }),
      `model "m1": unknown protocol "gemini" ${ACCEPTED_PROTOCOLS}`,
    ],
    [
      "a model's bad base_url",
      withModel({ base_url: "nope" }),
      `model "m1": base_url must be an http:// or https:// URL (got "nope")`,
    ],
    [
      "a model's bad session_header",
      withModel({ session_header: "a:b" }),
      `model "m1": session_header "a:b" is not a valid HTTP header name`,
    ],
    [
      "a model's header that is not a string",
      withModel({ headers: { "X-A": 2 } }),
      `model "m1": headers: "X-A" must be a string (it is a number)`,
    ],
    [
      "a max_output_tokens as text",
      withModel({ max_output_tokens: "lots" }),
      `model "m1": max_output_tokens must be a whole number (got "lots")`,
    ],
    [
      "a fractional max_tokens",
      withModel({ max_tokens: 1.5 }),
      `model "m1": max_tokens must be a whole number (got 1.5)`,
    ],
    [
      "a temperature as text",
      withModel({ temperature: "hot" }),
      `model "m1": temperature must be a number (got "hot")`,
    ],
    ["a top_p as a boolean", withModel({ top_p: true }), `model "m1": top_p must be a number (got true)`],
    ["a name that is not a string", withModel({ name: 3 }), `model "m1": name must be a string (it is a number)`],
    [
      "a reasoning that is not a boolean",
      withModel({ reasoning: "yes" }),
      `model "m1": reasoning must be true or false (got "yes")`,
    ],
    [
      "a reasoning model without thinking_modes",
      withModel({ reasoning: true }),
      `model "m1": thinking_modes are required on a reasoning model (an empty list is legal)`,
    ],
    [
      "thinking_modes on a model that does not reason",
      withModel({ reasoning: false, thinking_modes: [{ level: "low" }] }),
      `model "m1": thinking_modes are declared on a model that does not reason`,
    ],
    [
      "thinking_modes on a model without reasoning",
      withModel({ thinking_modes: [{ level: "low" }] }),
      `model "m1": thinking_modes are declared on a model that does not reason`,
    ],
    [
      "thinking_modes that are not a list",
      withModel({ reasoning: true, thinking_modes: "low" }),
      `model "m1": thinking_modes must be a list of {level, max_tokens} (it is a string)`,
    ],
    [
      "a thinking mode that is not an object",
      withModel({ reasoning: true, thinking_modes: ["low"] }),
      `model "m1": a thinking mode must be an object {level, max_tokens} (it is a string)`,
    ],
    [
      "a thinking mode without level",
      withModel({ reasoning: true, thinking_modes: [{ max_tokens: 10 }] }),
      `model "m1": a thinking mode declares no level`,
    ],
    [
      "a thinking level that is not a string",
      withModel({ reasoning: true, thinking_modes: [{ level: 3 }] }),
      `model "m1": a thinking level must be a string (got 3)`,
    ],
    [
      "the reserved level off",
      withModel({ reasoning: true, thinking_modes: [{ level: "off" }] }),
      `model "m1": thinking level "off" is reserved`,
    ],
    [
      "the reserved level none",
      withModel({ reasoning: true, thinking_modes: [{ level: "none" }] }),
      `model "m1": thinking level "none" is reserved`,
    ],
    [
      "a negative thinking budget",
      withModel({ reasoning: true, thinking_modes: [{ level: "low", max_tokens: -1 }] }),
      `model "m1": thinking level "low": max_tokens must not be negative`,
    ],
    [
      "a fractional thinking budget",
      withModel({ reasoning: true, thinking_modes: [{ level: "low", max_tokens: 0.5 }] }),
      `model "m1": thinking level "low": max_tokens must be a whole number (got 0.5)`,
    ],
    [
      "a repeated thinking level",
      withModel({ reasoning: true, thinking_modes: [{ level: "low" }, { level: "low", max_tokens: 1 }] }),
      `model "m1": duplicate thinking level "low"`,
    ],
    [
      "two broken rules: the Go program's order tells which is named",
      { ...validDeclaration(), auth: "oauth", models: [{ id: "m1" }] },
      `unknown auth "oauth" (accepted: api_key, none)`,
    ],
  ];
  for (const [what, declaration, reason] of cases) {
    test(what, async () => {
      fx.home.declaring("acme", declaration);
      expect(await fx.home.problem("acme")).toBe(`provider "acme": ${reason}`);
    });
  }
});

describe("a module that does not give a declaration is refused", () => {
  const cases: Array<[string, string, string]> = [
    ["returns a number", "module.exports = () => 42;", "module returned a number instead of a declaration object"],
    [
      "returns an array",
      "module.exports = () => [{ protocol: 'anthropic' }];",
      "module returned an array instead of a declaration object",
    ],
    ["returns null", "module.exports = () => null;", "module returned null instead of a declaration object"],
    ["returns nothing", "module.exports = () => {};", "module returned undefined instead of a declaration object"],
    [
      "returns a string",
      "module.exports = () => 'anthropic';",
      "module returned a string instead of a declaration object",
    ],
    [
      "returns a Map",
      "module.exports = () => new Map([['protocol', 'anthropic']]);",
      "module returned a Map instead of a declaration object",
    ],
    ["returns {}", "module.exports = () => ({});", "module returned an empty declaration"],
    [
      "returns only unknown fields",
      "module.exports = () => ({ name: 'acme', models: [] });",
      "module returned an empty declaration",
    ],
    [
      "returns a Promise",
      "module.exports = (ctx) => Promise.resolve({ protocol: 'anthropic', base_url: 'https://a.test' });",
      `module returned a Promise: a provider module returns its declaration synchronously (drop "async" and "await": ctx calls return their answers directly)`,
    ],
    [
      "is an async function",
      "module.exports = async function (ctx) { return { protocol: 'anthropic', base_url: 'https://a.test' }; };",
      `module returned a Promise: a provider module returns its declaration synchronously (drop "async" and "await": ctx calls return their answers directly)`,
    ],
    [
      "throws",
      "module.exports = () => { throw new Error('no catalogue today'); };",
      "module threw: no catalogue today",
    ],
    [
      "throws a TypeError",
      "module.exports = (ctx) => ctx.nothing.here;",
      "module threw: TypeError: undefined is not an object (evaluating 'ctx.nothing.here')",
    ],
    [
      "exports an object",
      "module.exports = { protocol: 'anthropic' };",
      "module.exports is not a function (it is an object)",
    ],
    ["exports nothing", "exports.declare = () => ({});", "module.exports is not a function (it is an object)"],
  ];
  for (const [what, source, reason] of cases) {
    test(what, async () => {
      fx.home.write("acme", source);
      expect(await fx.home.problem("acme")).toBe(`provider "acme": ${reason}`);
    });
  }

  test("cannot be loaded: the line names the provider and the load error", async () => {
    fx.home.write("acme", "module.exports = function (ctx) { return {\n");
    expect(await fx.home.problem("acme")).toStartWith(`provider "acme": SyntaxError: `);
    fx.home.write("needs", "require('./missing-helper.js'); module.exports = () => ({});");
    expect(await fx.home.problem("needs")).toStartWith(`provider "needs": Cannot find module './missing-helper.js'`);
  });

  test("one broken module leaves the others working", async () => {
    fx.home.write("broken", "module.exports = () => { throw new Error('boom'); };");
    fx.home.declaring("fine", validDeclaration());
    const results = await Promise.all(
      fx.home
        .list()
        .modules.filter((m) => m.origin === "module")
        .map((m) => fx.home.evaluate(m.name)),
    );
    expect(results.map((r) => ("provider" in r ? `ok ${r.provider.name}` : r.problem))).toEqual([
      `provider "broken": module threw: boom`,
      "ok fine",
    ]);
  });
});
