import { describe, expect, test } from "bun:test";
import { catalogueFigures } from "../../src/models-dev/index.ts";
import { FILE, linesOf, parse } from "./parse-helpers.ts";

function withModel(settings: string): string {
  return `providers:\n  local:\n    preset: ollama\n    models:\n      llama: ${settings}\n`;
}
const AT = `${FILE}: providers.local.models.llama`;

describe("model settings", () => {
  test("every setting is read and mapped to the resolved model", () => {
    const model = parse(
      withModel(
        "{ id: llama3.1:8b, max_tokens: 8192, temperature: 0.7, top_p: 0.9, context_window: 131072, thinking_level: medium, thinking_max_tokens: 2048 }",
      ),
    ).resolveModel("local/llama");
    expect(model).toEqual({
      ref: "local/llama",
      provider: "local",
      alias: "llama",
      wireId: "llama3.1:8b",
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
      maxTokens: 8192,
      temperature: 0.7,
      topP: 0.9,
      contextWindow: 131072,
      thinkingLevel: "medium",
      thinkingMaxTokens: 2048,
    });
  });

  test("timeout, idle_timeout and retries: the model's over the provider's, each naming the key that set it", () => {
    const text = withModel("{ idle_timeout: 90s }").replace(
      "    models:",
      "    timeout: 45m\n    retries: 0\n    models:",
    );
    expect(parse(text).resolveModel("local/llama").timing).toEqual({
      timeoutMs: 45 * 60_000,
      idleTimeoutMs: 90_000,
      retries: 0,
      keys: {
        timeout: "providers.local.timeout",
        idleTimeout: "providers.local.models.llama.idle_timeout",
        retries: "providers.local.retries",
      },
    });
    expect(linesOf(withModel('{ timeout: "soon", retries: 99 }'))).toEqual([
      '/home/u/.rienda/config.yaml: providers.local.models.llama.timeout: "soon" is not a duration such as "90s", "10m", "1h30m" or "500ms", or a number of seconds',
      "/home/u/.rienda/config.yaml: providers.local.models.llama.retries: must be at most 20 (0 turns retrying off)",
    ]);
  });

  test("the wire id defaults to the alias, also when id is empty", () => {
    expect(parse(withModel("{}")).resolveModel("local/llama").wireId).toBe("llama");
    expect(parse(withModel('{ id: "" }')).resolveModel("local/llama").wireId).toBe("llama");
  });

  test("unset settings stay absent, so the provider's defaults apply", () => {
    const model = parse(withModel("{}")).resolveModel("local/llama");
    for (const key of ["maxTokens", "temperature", "topP", "contextWindow", "thinkingLevel", "thinkingMaxTokens"]) {
      expect(key in model).toBe(false);
    }
  });

  test("temperature must be between 0 and 2, bounds included", () => {
    expect(parse(withModel("{ temperature: 0 }")).resolveModel("local/llama").temperature).toBe(0);
    expect(parse(withModel("{ temperature: 2 }")).resolveModel("local/llama").temperature).toBe(2);
    expect(linesOf(withModel("{ temperature: 2.5 }"))).toEqual([`${AT}.temperature: must be between 0 and 2`]);
    expect(linesOf(withModel("{ temperature: -0.1 }"))).toEqual([`${AT}.temperature: must be between 0 and 2`]);
    expect(linesOf(withModel('{ temperature: "0.7" }'))).toEqual([
      `${AT}.temperature: must be a number between 0 and 2, not a string ("0.7")`,
    ]);
    expect(linesOf(withModel("{ temperature: .nan }"))).toEqual([
      `${AT}.temperature: must be a number between 0 and 2, not a number (NaN)`,
    ]);
  });

  test("top_p must be between 0 and 1", () => {
    expect(parse(withModel("{ top_p: 1 }")).resolveModel("local/llama").topP).toBe(1);
    expect(linesOf(withModel("{ top_p: 1.01 }"))).toEqual([`${AT}.top_p: must be between 0 and 1`]);
  });

  test("token counts must be whole numbers; 0 means not set, as in the Go original", () => {
    for (const key of ["max_tokens", "context_window", "thinking_max_tokens"]) {
      expect(parse(withModel(`{ ${key}: 0 }`)).resolveModel("local/llama").maxTokens).toBeUndefined();
      expect(linesOf(withModel(`{ ${key}: -5 }`))).toEqual([`${AT}.${key}: must be an integer of 0 or more`]);
      expect(linesOf(withModel(`{ ${key}: 10.5 }`))).toEqual([`${AT}.${key}: must be an integer of 0 or more`]);
      expect(linesOf(withModel(`{ ${key}: "8192" }`))).toEqual([
        `${AT}.${key}: must be an integer of 0 or more, not a string ("8192")`,
      ]);
    }
  });

  test("an integer written as 8192.0 is an integer", () => {
    expect(parse(withModel("{ max_tokens: 8192.0 }")).resolveModel("local/llama").maxTokens).toBe(8192);
  });

  test("thinking_level accepts minimal, low, medium and high, in any case", () => {
    for (const level of ["minimal", "low", "medium", "high"]) {
      expect(parse(withModel(`{ thinking_level: ${level} }`)).resolveModel("local/llama").thinkingLevel).toBe(
        level as "low",
      );
    }
    expect(parse(withModel("{ thinking_level: High }")).resolveModel("local/llama").thinkingLevel).toBe("high");
  });

  test("an unknown thinking_level is refused with the known levels", () => {
    expect(linesOf(withModel("{ thinking_level: extreme }"))).toEqual([
      `${AT}.thinking_level: unknown thinking level "extreme" (known levels: minimal, low, medium, high)`,
    ]);
  });

  test("an unknown model key is refused", () => {
    expect(linesOf(withModel("{ max_token: 10 }"))).toEqual([
      `${AT}.max_token: unknown key (did you mean "max_tokens"? known keys: id, max_tokens, temperature, top_p, context_window, thinking_level, thinking_max_tokens, cache, send_thinking, cost, request_rules, structured_output, tool_calls_in_text, timeout, idle_timeout, retries)`,
    ]);
  });

  test("structured_output is native or tool", () => {
    expect(linesOf(withModel("{ structured_output: natve }"))).toEqual([
      `${AT}.structured_output: unknown structured output "natve" (did you mean "native"? known: native, tool)`,
    ]);
  });

  test("tool_calls_in_text is one of hermes, mistral, llama3, auto, off, and reaches the resolved model", () => {
    expect(linesOf(withModel("{ tool_calls_in_text: hermez }"))).toEqual([
      `${AT}.tool_calls_in_text: unknown form "hermez" (did you mean "hermes"? known: hermes, mistral, llama3, auto, off)`,
    ]);
    const text = `providers:\n  local:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:8080/v1\n    models:\n      q: { tool_calls_in_text: Mistral }\n      r: {}\n`;
    expect(parse(text).resolveModel("local/q").toolCallsInText).toBe("mistral");
    expect(parse(text).resolveModel("local/r").toolCallsInText).toBeUndefined();
  });

  test("model settings that are not a mapping are refused", () => {
    expect(linesOf(withModel("gpt"))).toEqual([`${AT}: must be a mapping (key: value pairs), not a string ("gpt")`]);
  });

  test("aliases may contain slashes and dots; such keys are quoted in messages", () => {
    const text = `providers:\n  or:\n    preset: openrouter\n    models:\n      moonshotai/kimi-k2: {}\n      "llama3.1:8b": { top_p: 3 }\n`;
    expect(linesOf(text)).toEqual([`${FILE}: providers.or.models."llama3.1:8b".top_p: must be between 0 and 1`]);
    const ok = parse(`providers:\n  or:\n    preset: openrouter\n    models:\n      moonshotai/kimi-k2: {}\n`);
    expect(ok.resolveModel("or/moonshotai/kimi-k2").wireId).toBe("moonshotai/kimi-k2");
  });
});

describe("warnings about settings that are not sent", () => {
  const anthropic = (settings: string) =>
    `providers:\n  claude:\n    preset: anthropic\n    models:\n      sonnet: ${settings}\n`;

  test("temperature or top_p with Anthropic thinking load, with a warning per key naming why", () => {
    const config = parse(anthropic("{ thinking_max_tokens: 2048, temperature: 0.2, top_p: 0.9 }"));
    expect(config.warnings.map((w) => w.path)).toEqual([
      "providers.claude.models.sonnet.temperature",
      "providers.claude.models.sonnet.top_p",
    ]);
    expect(config.warnings[0]?.message).toContain("Anthropic refuses temperature when thinking is enabled");
    expect(config.warnings[0]?.file).toBe(FILE);
    expect(config.warnings[0]?.line).toBe(5);
  });

  test("no warning without thinking, or on other protocols", () => {
    expect(parse(anthropic("{ temperature: 0.2 }")).warnings).toEqual([]);
    expect(parse(withModel("{ thinking_max_tokens: 2048, temperature: 0.2 }")).warnings).toEqual([]);
  });
});

describe("model rules: a Go-era model block on current and older models", () => {
  const claude = (id: string, settings: string) =>
    `providers:\n  claude:\n    preset: anthropic\n    models:\n      m: { id: ${id}, ${settings} }\n`;
  const warningsOf = (text: string) => parse(text).warnings.map((w) => `${w.path}: ${w.message}`);

  test("on Claude Sonnet 5 a budget and sampling settings load with a warning each, naming the model and the HTTP 400 they would cause", () => {
    const warnings = warningsOf(claude("claude-sonnet-5", "thinking_max_tokens: 4096, temperature: 0.3, top_p: 0.9"));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toStartWith(
      "providers.claude.models.m.thinking_max_tokens: is not sent as a budget: Claude Sonnet 5 thinks adaptively and refuses a thinking budget (HTTP 400)",
    );
    expect(warnings[1]).toStartWith(
      "providers.claude.models.m.temperature: is not sent: Claude Sonnet 5 refuses sampling settings (HTTP 400)",
    );
    expect(warnings[2]).toStartWith("providers.claude.models.m.top_p: is not sent");
  });

  test("on Claude 3.7 and 4.x the same block warns only where the API refuses it", () => {
    expect(warningsOf(claude("claude-3-7-sonnet-20250219", "temperature: 0.3, top_p: 0.9"))).toEqual([]);
    expect(warningsOf(claude("claude-sonnet-4-5", "temperature: 0.3, top_p: 0.9"))).toEqual([
      "providers.claude.models.m.top_p: is not sent: Claude Sonnet 4.5 refuses temperature and top_p together (HTTP 400), so only temperature is sent; remove one of them",
    ]);
    expect(warningsOf(claude("claude-haiku-4-5", "thinking_level: high"))[0]).toContain(
      "Claude Haiku 4.5 takes no effort setting",
    );
    expect(warningsOf(claude("claude-opus-4-6", "thinking_level: high"))).toEqual([]);
  });

  test("OpenAI reasoning models: sampling settings are not sent, minimal is low on gpt-5.1 and later", () => {
    const text =
      "providers:\n  openai:\n    preset: openai\n    models:\n      g: { id: gpt-5.1, temperature: 0.2, thinking_level: minimal }\n      old: { id: gpt-4o, thinking_level: high }\n";
    expect(warningsOf(text)).toEqual([
      "providers.openai.models.g.temperature: is not sent: gpt-5.1 is a reasoning model and refuses temperature with a reasoning effort set (thinking_level) (HTTP 400); remove temperature",
      'providers.openai.models.g.thinking_level: is sent as low: gpt-5.1 refuses "minimal" (HTTP 400); its efforts start at low (or none, which turns reasoning off)',
      "providers.openai.models.old.thinking_level: is not sent: gpt-4o does not reason and refuses a reasoning effort (HTTP 400); remove thinking_level",
    ]);
  });

  test("request_rules is read, strict, and only forces rules on their own protocol", () => {
    const forced = parse(claude("house-model", "request_rules: claude_adaptive, temperature: 0.3"));
    expect(forced.resolveModel("claude/m").requestRules).toBe("claude_adaptive");
    expect(forced.warnings.map((w) => w.path)).toEqual(["providers.claude.models.m.temperature"]);
    expect(parse(claude("claude-sonnet-5", "request_rules: as_written, temperature: 0.3")).warnings).toEqual([]);
    expect("requestRules" in parse(claude("claude-sonnet-5", "request_rules: auto")).resolveModel("claude/m")).toBe(
      false,
    );
    expect(linesOf(withModel("{ request_rules: claude_adaptiv }"))).toEqual([
      `${AT}.request_rules: unknown request rules "claude_adaptiv" (did you mean "claude_adaptive"? known: auto, as_written, claude_adaptive, openai_reasoning)`,
    ]);
    expect(linesOf(withModel("{ request_rules: claude_adaptive }"))).toEqual([
      `${AT}.request_rules: "claude_adaptive" is for protocol anthropic (this provider uses openai_chat_completions); use auto or as_written`,
    ]);
    expect(linesOf(claude("x", "request_rules: openai_reasoning"))[0]).toContain(
      '"openai_reasoning" is for protocol openai_chat_completions or openai_responses',
    );
  });
});

describe("cache and cost", () => {
  test("cache: false and cost are read; prices are per million tokens", () => {
    const model = parse(
      withModel("{ cache: false, cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } }"),
    ).resolveModel("local/llama");
    expect(model.cache).toBe(false);
    expect(model.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  });

  test("a Go-era `cache: no` is a boolean too; no cost means no prices for a model without a preset table", () => {
    const model = parse(withModel("{ cache: no }")).resolveModel("local/llama");
    expect(model.cache).toBe(false);
    expect(model.prices).toBeUndefined();
  });

  test("cost is strict: unknown keys, missing input or output, negative or non-number prices are refused", () => {
    expect(linesOf(withModel("{ cost: { input: 1, output: 2, cached: 0.1 } }"))).toEqual([
      `${AT}.cost.cached: unknown key (known keys: input, output, cache_read, cache_write)`,
    ]);
    expect(linesOf(withModel("{ cost: { input: 1 } }"))).toEqual([
      `${AT}.cost: needs output (dollars per million tokens); cache_read and cache_write are optional`,
    ]);
    expect(linesOf(withModel("{ cost: { input: -1, output: 2 } }"))).toEqual([
      `${AT}.cost.input: must be between 0 and 10000`,
    ]);
    expect(linesOf(withModel('{ cost: { input: "3", output: 2 } }'))[0]).toContain(
      `${AT}.cost.input: must be a number`,
    );
  });

  test("presets price their known models; a dated id matches its family; config wins", () => {
    const text = `providers:\n  claude:\n    preset: anthropic\n    models:\n      sonnet: { id: claude-sonnet-4-5-20250929 }\n      mine: { id: claude-sonnet-4-5, cost: { input: 1, output: 2 } }\n      odd: { id: claude-unknown-9 }\n`;
    const config = parse(text);
    expect(config.resolveModel("claude/sonnet").prices).toEqual({
      input: 3,
      output: 15,
      cacheWrite: 3.75,
      cacheRead: 0.3,
    });
    expect(config.resolveModel("claude/mine").prices).toEqual({ input: 1, output: 2 });
    expect(config.resolveModel("claude/odd").prices).toBeUndefined();
  });
});

describe("send_thinking", () => {
  test("is on by default for the deepseek preset and the DeepSeek and Moonshot hosts, off elsewhere, and the model's own setting wins", () => {
    const text = [
      "providers:",
      "  ds:",
      "    preset: deepseek",
      "    models:",
      "      reasoner: { id: deepseek-reasoner }",
      "      quiet: { id: deepseek-chat, send_thinking: false }",
      "  kimi:",
      "    protocol: openai_chat_completions",
      "    base_url: https://api.moonshot.ai/v1",
      "    models:",
      "      k2: { id: kimi-k2-thinking }",
      "  proxy:",
      "    preset: deepseek",
      "    base_url: https://gateway.example/deepseek",
      "    models:",
      "      r: { id: deepseek-reasoner }",
      "  router:",
      "    preset: openrouter",
      "    models:",
      "      plain: { id: some/model }",
      "      kimi: { id: moonshotai/kimi-k2-thinking, send_thinking: true }",
      "",
    ].join("\n");
    const config = parse(text);
    expect(config.resolveModel("ds/reasoner").sendThinking).toBe(true);
    expect(config.resolveModel("ds/quiet").sendThinking).toBe(false);
    expect(config.resolveModel("kimi/k2")).toMatchObject({
      sendThinking: true,
      baseUrl: "https://api.moonshot.ai/v1",
      protocol: "openai_chat_completions",
    });
    expect(config.resolveModel("proxy/r").sendThinking).toBe(true);
    expect("sendThinking" in config.resolveModel("router/plain")).toBe(false);
    expect(config.resolveModel("router/kimi").sendThinking).toBe(true);
    expect(config.warnings).toEqual([]);
  });

  test("on a protocol other than Chat Completions it loads with a warning and is not used", () => {
    const config = parse(
      "providers:\n  claude:\n    preset: anthropic\n    models:\n      opus: { send_thinking: true }\n",
    );
    expect(config.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'providers.claude.models.opus.send_thinking: is only used by protocol "openai_chat_completions" (this provider uses anthropic); remove it',
    ]);
    expect("sendThinking" in config.resolveModel("claude/opus")).toBe(false);
  });

  test("must be a boolean", () => {
    expect(linesOf(withModel("{ send_thinking: 3 }"))[0]).toContain(`${AT}.send_thinking: must be`);
  });
});

describe("preset prices", () => {
  function pricesOf(preset: string, id: string) {
    return parse(`providers:\n  p:\n    preset: ${preset}\n    models:\n      m: { id: "${id}" }\n`).resolveModel("p/m")
      .prices;
  }

  test("a listed id, or one with a snapshot date or -latest, has the vendor's price", () => {
    expect(pricesOf("anthropic", "claude-opus-4-6")).toEqual({
      input: 5,
      output: 25,
      cacheWrite: 6.25,
      cacheRead: 0.5,
    });
    expect(pricesOf("anthropic", "claude-opus-4-20250514")).toEqual({
      input: 15,
      output: 75,
      cacheWrite: 18.75,
      cacheRead: 1.5,
    });
    expect(pricesOf("anthropic", "claude-3-5-haiku-latest")).toEqual({
      input: 0.8,
      output: 4,
      cacheWrite: 1,
      cacheRead: 0.08,
    });
    expect(pricesOf("anthropic", "claude-sonnet-5")).toEqual({ input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 });
    expect(pricesOf("openai", "gpt-4o-2024-08-06")).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(pricesOf("openai", "gpt-5-chat-latest")).toEqual({ input: 1.25, output: 10, cacheRead: 0.125 });
    expect(pricesOf("openai", "GPT-4o-mini")).toEqual({ input: 0.15, output: 0.6, cacheRead: 0.075 });
  });

  test("a variant of a family is not given the family's price: it has its own from the models.dev snapshot, or none", () => {
    for (const [preset, id, family] of [
      ["openai", "o3-mini", "o3"],
      ["openai", "o3-pro", "o3"],
      ["openai", "gpt-5-pro", "gpt-5"],
      ["openai", "gpt-4o-audio-preview", "gpt-4o"],
      ["openai", "o4-mini-deep-research", "o4-mini"],
      ["anthropic", "claude-opus-4-9", "claude-opus-4-8"],
      ["anthropic", "claude-haiku-5-5", "claude-haiku-4-5"],
      ["anthropic", "claude-opus-5-5", "claude-opus-5"],
    ] as const) {
      const own = catalogueFigures({ preset, baseUrl: "https://example.invalid" }, id)?.prices;
      expect([id, pricesOf(preset, id)]).toEqual([id, own]);
      expect([id, pricesOf(preset, id)]).not.toEqual([id, pricesOf(preset, family)]);
    }
    // What the vendor's own table leaves out, the snapshot has; an id it lacks stays unpriced.
    expect(pricesOf("openai", "o3-pro")).toEqual({ input: 20, output: 80 });
    expect(pricesOf("openai", "gpt-4o-audio-preview")).toBeUndefined();
  });

  test("DeepSeek bills by the hour (peak and off-peak), so its preset names no price", () => {
    expect(pricesOf("deepseek", "deepseek-chat")).toBeUndefined();
    expect(pricesOf("deepseek", "deepseek-reasoner")).toBeUndefined();
  });
});
