import { describe, expect, test } from "bun:test";
import { PRESETS } from "../../src/config/index.ts";
import { FILE, linesOf, parse } from "./parse-helpers.ts";

function provider(body: string, name = "p"): string {
  return `providers:\n  ${name}:\n${body
    .trim()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n`;
}

describe("providers: protocol, preset and base_url", () => {
  test("a provider with protocol and base_url loads", () => {
    const p = parse(provider("protocol: anthropic\nbase_url: https://example.test\nmodels: { m: {} }")).providers.get(
      "p",
    );
    expect(p?.protocol).toBe("anthropic");
    expect(p?.baseUrl).toBe("https://example.test");
    expect(p?.preset).toBeUndefined();
  });

  test("every preset supplies the protocol and base URL of contract §2", () => {
    const expected: Record<string, [string, string]> = {
      anthropic: ["anthropic", "https://api.anthropic.com"],
      openai: ["openai_responses", "https://api.openai.com/v1"],
      openrouter: ["openai_chat_completions", "https://openrouter.ai/api/v1"],
      deepseek: ["openai_chat_completions", "https://api.deepseek.com"],
      ollama: ["openai_chat_completions", "http://127.0.0.1:11434/v1"],
      lmstudio: ["openai_chat_completions", "http://127.0.0.1:1234/v1"],
    };
    expect(Object.keys(PRESETS).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [protocol, url]] of Object.entries(expected)) {
      const p = parse(provider(`preset: ${name}\nmodels: { m: {} }`)).providers.get("p");
      expect([p?.protocol, p?.baseUrl, p?.preset]).toEqual([protocol, url, name]);
    }
  });

  test("an explicit base_url overrides the preset's", () => {
    const p = parse(provider("preset: ollama\nbase_url: http://gpu-box:11434/v1\nmodels: { m: {} }")).providers.get(
      "p",
    );
    expect([p?.protocol, p?.baseUrl]).toEqual(["openai_chat_completions", "http://gpu-box:11434/v1"]);
  });

  test("trailing slashes of base_url are dropped", () => {
    expect(
      parse(provider("protocol: openai_chat_completions\nbase_url: http://h:1/v1//")).providers.get("p")?.baseUrl,
    ).toBe("http://h:1/v1");
  });

  test("protocol and preset together are refused", () => {
    expect(linesOf(provider("protocol: anthropic\npreset: anthropic"))).toEqual([
      `${FILE}: providers.p: set either protocol or preset, not both`,
    ]);
  });

  test("a provider with neither protocol nor preset is refused", () => {
    expect(linesOf(provider("api_key: x"))).toEqual([
      `${FILE}: providers.p: needs either "protocol" (with "base_url") or "preset" (one of: anthropic, openai, openrouter, deepseek, ollama, lmstudio)`,
    ]);
    expect(linesOf("providers:\n  p:\n")).toEqual([
      `${FILE}: providers.p: needs either "protocol" (with "base_url") or "preset" (one of: anthropic, openai, openrouter, deepseek, ollama, lmstudio)`,
    ]);
  });

  test("base_url is required with protocol", () => {
    expect(linesOf(provider("protocol: openai_responses"))).toEqual([
      `${FILE}: providers.p.base_url: is required with protocol "openai_responses"`,
    ]);
    expect(linesOf(provider('protocol: anthropic\nbase_url: ""'))).toEqual([
      `${FILE}: providers.p.base_url: is required with protocol "anthropic"`,
    ]);
  });

  test("an unknown preset or protocol lists the known ones", () => {
    expect(linesOf(provider("preset: gemini"))).toEqual([
      `${FILE}: providers.p.preset: unknown preset "gemini" (known presets: anthropic, openai, openrouter, deepseek, ollama, lmstudio)`,
    ]);
    expect(linesOf(provider("protocol: openai\nbase_url: http://x"))).toEqual([
      `${FILE}: providers.p.protocol: unknown protocol "openai" (known protocols: openai_chat_completions, openai_responses, anthropic, replay)`,
    ]);
    // Names that exist on every object are no presets.
    expect(linesOf(provider("preset: constructor"))[0]).toContain('unknown preset "constructor"');
  });

  test("a base_url that is not an http(s) URL is refused", () => {
    expect(linesOf(provider("protocol: anthropic\nbase_url: api.anthropic.com"))).toEqual([
      `${FILE}: providers.p.base_url: must be an http:// or https:// URL (got "api.anthropic.com")`,
    ]);
    expect(linesOf(provider("protocol: anthropic\nbase_url: ftp://x"))[0]).toContain(
      "must be an http:// or https:// URL",
    );
  });

  test('a provider name containing "/" is refused', () => {
    expect(linesOf(provider("preset: openai", "my/openai"))).toEqual([
      `${FILE}: providers.my/openai: provider name must not contain "/" (a model reference "provider/alias" splits on the first "/")`,
    ]);
  });

  test("an unknown provider key is refused, with a suggestion when one is close", () => {
    expect(linesOf(provider("preset: openai\nmodles: {}"))).toEqual([
      `${FILE}: providers.p.modles: unknown key (did you mean "models"? known keys: protocol, preset, base_url, api_key, headers, session_header, models, script, timeout, idle_timeout, retries)`,
    ]);
    expect(linesOf(provider("preset: openai\ntimeot: 3"))).toEqual([
      `${FILE}: providers.p.timeot: unknown key (did you mean "timeout"? known keys: protocol, preset, base_url, api_key, headers, session_header, models, script, timeout, idle_timeout, retries)`,
    ]);
  });

  test("a provider that is not a mapping is refused", () => {
    expect(linesOf("providers:\n  p: openai\n")).toEqual([
      `${FILE}: providers.p: must be a mapping (key: value pairs), not a string ("openai")`,
    ]);
  });

  test("wrong types of provider fields are named", () => {
    expect(linesOf(provider("preset: [openai]"))).toEqual([
      `${FILE}: providers.p.preset: must be a string, not a list`,
      `${FILE}: providers.p: needs either "protocol" (with "base_url") or "preset" (one of: anthropic, openai, openrouter, deepseek, ollama, lmstudio)`,
    ]);
    expect(linesOf(provider("preset: openai\napi_key: { a: 1 }"))).toEqual([
      `${FILE}: providers.p.api_key: must be a string, not a mapping`,
    ]);
    expect(linesOf(provider("preset: openai\nmodels: [gpt-4o]"))).toEqual([
      `${FILE}: providers.p.models: must be a mapping (key: value pairs), not a list`,
    ]);
  });
});

describe("providers: api_key, headers, session_header, models", () => {
  test("api_key may be absent or empty (local servers)", () => {
    expect(parse(provider("preset: ollama\nmodels: { m: {} }")).resolveModel("p/m").apiKey).toBe("");
    expect(parse(provider('preset: ollama\napi_key: ""\nmodels: { m: {} }')).resolveModel("p/m").apiKey).toBe("");
  });

  test("headers are sent as strings; numbers keep the text they were written as", () => {
    const p = parse(
      provider("preset: openrouter\nheaders: { X-Title: rienda, X-Version: 1.10, X-Flag: true }"),
    ).providers.get("p");
    expect(p?.headers).toEqual({ "X-Title": "rienda", "X-Version": "1.10", "X-Flag": "true" });
  });

  test("a header name that is not an HTTP token is refused", () => {
    expect(linesOf(provider('preset: openai\nheaders: { "X Title": a }'))).toEqual([
      `${FILE}: providers.p.headers."X Title": "X Title" is not a valid HTTP header name`,
    ]);
  });

  test("a header value with a line break is refused", () => {
    expect(linesOf(provider('preset: openai\nheaders: { X-A: "a\\nb" }'))).toEqual([
      `${FILE}: providers.p.headers.X-A: a header value must not contain line breaks`,
    ]);
  });

  test("an api_key with a line ending, written or from the environment, is refused without showing the key", () => {
    const expected = [
      `${FILE}: providers.p.api_key: must not contain line breaks (was the key copied with its line ending?)`,
    ];
    expect(linesOf(provider('preset: openai\napi_key: "sk-live-1\\r"'))).toEqual(expected);
    expect(linesOf(provider("preset: openai\napi_key: ${KEY}"), { KEY: "sk-live-1\r\n" })).toEqual(expected);
  });

  test("headers must be a mapping", () => {
    expect(linesOf(provider("preset: openai\nheaders: [X-A]"))).toEqual([
      `${FILE}: providers.p.headers: must be a mapping (key: value pairs), not a list`,
    ]);
  });

  test("session_header names the header carrying the session id; empty means none", () => {
    expect(parse(provider("preset: openai\nsession_header: X-Session-Id")).providers.get("p")?.sessionHeader).toBe(
      "X-Session-Id",
    );
    expect(parse(provider('preset: openai\nsession_header: ""')).providers.get("p")?.sessionHeader).toBeUndefined();
    expect(linesOf(provider("preset: openai\nsession_header: X Session"))).toEqual([
      `${FILE}: providers.p.session_header: "X Session" is not a valid HTTP header name`,
    ]);
  });

  test("models may be absent, empty, or list aliases with no settings", () => {
    expect(parse(provider("preset: openai")).modelRefs()).toEqual([]);
    expect(parse(provider("preset: openai\nmodels: {}")).modelRefs()).toEqual([]);
    expect(parse(provider("preset: openai\nmodels:\n  gpt-4o:\n  o3: {}")).modelRefs()).toEqual(["p/gpt-4o", "p/o3"]);
  });

  test("providers and models keep the file's order", () => {
    const text =
      "providers:\n  z: { preset: openai, models: { b: {}, a: {} } }\n  a: { preset: ollama, models: { '10': {}, '2': {} } }\n";
    expect(parse(text).modelRefs()).toEqual(["z/b", "z/a", "a/10", "a/2"]);
  });
});

describe("providers: the replay protocol", () => {
  test("protocol replay needs a script and no base_url", () => {
    const config = parse(provider("protocol: replay\nscript: scripts/demo.yaml\nmodels: { demo: {} }"));
    const model = config.resolveModel("p/demo");
    expect(model.protocol).toBe("replay");
    expect(model.baseUrl).toBe("");
    expect(model.script).toBe("/home/u/.rienda/scripts/demo.yaml");
  });

  test("a script path may start with ~/ or be absolute", () => {
    expect(parse(provider("protocol: replay\nscript: ~/demo.yaml")).providers.get("p")?.script).toBe(
      "/home/u/demo.yaml",
    );
    expect(parse(provider("protocol: replay\nscript: /srv/demo.yaml")).providers.get("p")?.script).toBe(
      "/srv/demo.yaml",
    );
  });

  test("replay without a script is refused", () => {
    expect(linesOf(provider("protocol: replay"))).toEqual([
      `${FILE}: providers.p.script: is required with protocol "replay" (the path of a replay script)`,
    ]);
  });

  test("script with another protocol or a preset is refused", () => {
    expect(linesOf(provider("preset: openai\nscript: a.yaml"))).toEqual([
      `${FILE}: providers.p.script: is only used by protocol "replay"`,
    ]);
    expect(linesOf(provider("protocol: anthropic\nbase_url: http://x\nscript: a.yaml"))).toEqual([
      `${FILE}: providers.p.script: is only used by protocol "replay"`,
    ]);
  });

  test("base_url with replay is refused", () => {
    expect(linesOf(provider("protocol: replay\nscript: a.yaml\nbase_url: http://x"))).toEqual([
      `${FILE}: providers.p.base_url: is not used by the replay protocol (remove it)`,
    ]);
  });
});
