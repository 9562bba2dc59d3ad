/**
 * Files the Go Rienda (yaml.v3) accepted must load unchanged: empty values,
 * YAML 1.1 booleans, numbers written where text is expected, anchors and
 * merge keys.
 */
import { describe, expect, test } from "bun:test";
import { parse } from "./parse-helpers.ts";

describe("Go-era config files", () => {
  test("keys with no value count as absent", () => {
    const text = `providers:
  local:
    protocol: openai_chat_completions
    base_url: http://127.0.0.1:11434/v1
    api_key:
    headers:
    session_header:
    models:
      llama:
        id:
        max_tokens:
compaction:
config:
`;
    const config = parse(text);
    expect(config.resolveModel("local/llama")).toEqual({
      ref: "local/llama",
      provider: "local",
      alias: "llama",
      wireId: "llama",
      protocol: "openai_chat_completions",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "",
      apiKeySource: { kind: "absent", path: "providers.local.api_key" },
      timing: {
        keys: {
          timeout: "providers.local.timeout",
          idleTimeout: "providers.local.idle_timeout",
          retries: "providers.local.retries",
        },
      },
      headers: {},
    });
    expect(config.compaction.enabled).toBe(true);
  });

  test('an empty string ("") counts as absent for protocol, preset and thinking_level, as in Go\'s plain string fields', () => {
    const text = `providers:
  viaPreset:
    preset: ollama
    protocol: ""
    models: { m: { thinking_level: "" } }
  viaProtocol:
    protocol: anthropic
    preset: ""
    base_url: http://127.0.0.1:9/x
    models: { m: {} }
`;
    const config = parse(text);
    const preset = config.resolveModel("viaPreset/m");
    expect(preset).toMatchObject({ protocol: "openai_chat_completions", baseUrl: "http://127.0.0.1:11434/v1" });
    expect(preset.thinkingLevel).toBeUndefined();
    expect(config.resolveModel("viaProtocol/m")).toMatchObject({
      protocol: "anthropic",
      baseUrl: "http://127.0.0.1:9/x",
    });
    expect(() => parse('providers:\n  p:\n    protocol: ""\n    preset: ""\n    models: { m: {} }\n')).toThrow(
      'needs either "protocol"',
    );
  });

  test("an extension named under config: with no value has no settings", () => {
    const config = parse("providers: { p: { preset: ollama } }\nconfig:\n  word-count:\n  guard: { strict: true }\n");
    expect(config.extensionConfig).toEqual({ "word-count": {}, guard: { strict: true } });
  });

  test("compaction.enabled accepts yes/no and on/off", () => {
    for (const [word, value] of [
      ["yes", true],
      ["no", false],
      ["on", true],
      ["off", false],
      ["True", true],
      ["N", false],
    ] as const) {
      expect(parse(`providers: { p: { preset: openai } }\ncompaction: { enabled: ${word} }\n`).compaction.enabled).toBe(
        value,
      );
    }
  });

  test("integers written as yaml.v3 read them: digits grouped with underscores, binary", () => {
    const text = `providers:
  p:
    preset: ollama
    models:
      m: { max_tokens: 32_000, context_window: 200_000, thinking_max_tokens: 0b1000_0000_0000 }
compaction: { reserve_tokens: 16_384, keep_recent_tokens: 2_0_000 }
`;
    const config = parse(text);
    expect(config.resolveModel("p/m")).toMatchObject({
      maxTokens: 32000,
      contextWindow: 200000,
      thinkingMaxTokens: 2048,
    });
    expect(config.compaction).toMatchObject({ reserveTokens: 16384, keepRecentTokens: 20000 });
    expect(() => parse("providers:\n  p:\n    preset: ollama\n    models: { m: { max_tokens: 32_k } }\n")).toThrow(
      "max_tokens: must be an integer",
    );
    expect(() => parse("providers:\n  p:\n    preset: ollama\n    models: { m: { max_tokens: -1_000 } }\n")).toThrow(
      "max_tokens: must be an integer",
    );
    expect(() => parse('providers:\n  p:\n    preset: ollama\n    models: { m: { max_tokens: "32_000" } }\n')).toThrow(
      'max_tokens: must be an integer of 0 or more, not a string ("32_000")',
    );
    expect(() =>
      parse("providers:\n  p:\n    preset: ollama\n    models:\n      m:\n        max_tokens: ${TOKENS}\n", {
        TOKENS: "32_000",
      }),
    ).toThrow("max_tokens: must be an integer of 0 or more, not a string");
    const document = parse(
      "providers:\n  p:\n    preset: ollama\n    api_key: 1_000\n    models: { m: {} }\nconfig:\n  word-count: { max_bytes: 1_000_000, label: '1_000' }\n  1_0: {}\n",
    );
    expect(document.resolveModel("p/m").apiKey).toBe("1_000");
    expect(document.document.config).toEqual({ "word-count": { max_bytes: 1000000, label: "1_000" }, "1_0": {} });
  });

  test("a number written for a text field keeps its exact text", () => {
    const text = "providers:\n  p:\n    preset: ollama\n    api_key: 0123\n    models:\n      v1: { id: 1.10 }\n";
    const model = parse(text).resolveModel("p/v1");
    expect(model.apiKey).toBe("0123");
    expect(model.wireId).toBe("1.10");
  });

  test("anchors, aliases and merge keys work", () => {
    const text = `providers:
  a:
    preset: openrouter
    models:
      base: &defaults { max_tokens: 4096, temperature: 0.2 }
      kimi:
        <<: *defaults
        id: moonshotai/kimi-k2
`;
    const model = parse(text).resolveModel("a/kimi");
    expect([model.wireId, model.maxTokens, model.temperature]).toEqual(["moonshotai/kimi-k2", 4096, 0.2]);
  });

  test("comments and a leading document marker are fine", () => {
    expect(
      parse(
        "# my config\n---\nproviders: # all of them\n  p: { preset: openai, models: { o3: {} } } # one\n",
      ).modelRefs(),
    ).toEqual(["p/o3"]);
  });
});
