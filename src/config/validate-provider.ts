/** Validation of one `providers.<name>` entry and its models. */
import { isAbsolute, join, resolve } from "node:path";
import { planSettings, TEXT_TOOL_CALL_SETTINGS, type TextToolCallSetting } from "../providers/index.ts";
import type { ModelPrices, ProtocolName, RequestRules, StructuredOutput, ThinkingLevel } from "../providers/types.ts";
import { didYouMean } from "../values.ts";
import type { ConfigReader } from "./config-reader.ts";
import { findPreset, isProtocolName, PRESETS, PROTOCOLS } from "./presets.ts";
import { readApiKeySource } from "./read-api-key-source.ts";
import { readRequestTiming, REQUEST_TIMING_KEYS } from "./read-request-timing.ts";
import type { ModelSettings, ProviderSettings } from "./types.ts";

const PROVIDER_KEYS = [
  "protocol",
  "preset",
  "base_url",
  "api_key",
  "headers",
  "session_header",
  "models",
  "script",
  ...REQUEST_TIMING_KEYS,
] as const;
const MODEL_KEYS = [
  "id",
  "max_tokens",
  "temperature",
  "top_p",
  "context_window",
  "thinking_level",
  "thinking_max_tokens",
  "cache",
  "send_thinking",
  "cost",
  "request_rules",
  "structured_output",
  "tool_calls_in_text",
  ...REQUEST_TIMING_KEYS,
] as const;
const COST_KEYS = ["input", "output", "cache_read", "cache_write"] as const;
/** A price per million tokens above this is a typo (the dearest models cost tens of dollars). */
const MAX_PRICE = 10_000;
const THINKING_LEVELS: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high"];
const REQUEST_RULES: readonly RequestRules[] = ["auto", "as_written", "claude_adaptive", "openai_reasoning"];
const STRUCTURED_OUTPUTS: readonly StructuredOutput[] = ["native", "tool"];
/** The protocols each forced set of rules belongs to. */
const RULES_PROTOCOLS: Readonly<Partial<Record<RequestRules, readonly ProtocolName[]>>> = {
  claude_adaptive: ["anthropic"],
  openai_reasoning: ["openai_chat_completions", "openai_responses"],
};
// RFC 9110 token: what an HTTP header name may contain.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Where relative and `~` paths of the file resolve. */
export interface PathBase {
  /** Directory of the configuration file. */
  configDir: string;
  home: string;
}

/** Validates `providers.<name>`; problems go to `reader`, `undefined` when unusable. */
export function validateProvider(
  reader: ConfigReader,
  name: string,
  value: unknown,
  base: PathBase,
): ProviderSettings | undefined {
  const path = ["providers", name];
  const problemsBefore = reader.problems.length;
  if (name === "") reader.problem(path, "a provider name must not be empty");
  if (name.includes("/"))
    reader.problem(
      path,
      `provider name must not contain "/" (a model reference "provider/alias" splits on the first "/")`,
    );
  const map = reader.mapping(value, path);
  if (!map) return undefined;
  reader.knownKeys(map, PROVIDER_KEYS, path);

  const protocolText = unsetWhenEmpty(reader.string(map, "protocol", path));
  const presetText = unsetWhenEmpty(reader.string(map, "preset", path));
  let protocol = undefined as ProviderSettings["protocol"] | undefined;
  let presetUrl = "";
  if (protocolText !== undefined && presetText !== undefined) {
    reader.problem(path, "set either protocol or preset, not both");
  } else if (presetText !== undefined) {
    const preset = findPreset(presetText);
    if (preset) {
      protocol = preset.protocol;
      presetUrl = preset.baseUrl;
    } else {
      reader.problem(
        [...path, "preset"],
        `unknown preset "${presetText}" (${didYouMean(presetText, Object.keys(PRESETS))}known presets: ${Object.keys(PRESETS).join(", ")})`,
      );
    }
  } else if (protocolText !== undefined) {
    if (isProtocolName(protocolText)) protocol = protocolText;
    else
      reader.problem(
        [...path, "protocol"],
        `unknown protocol "${protocolText}" (${didYouMean(protocolText, PROTOCOLS)}known protocols: ${PROTOCOLS.join(", ")})`,
      );
  } else {
    reader.problem(
      path,
      `needs either "protocol" (with "base_url") or "preset" (one of: ${Object.keys(PRESETS).join(", ")})`,
    );
  }

  const baseUrl = readBaseUrl(reader, map, path, protocol, presetText !== undefined, presetUrl);
  const script = readScript(reader, map, path, protocol, base);
  const headers = readHeaders(reader, map, path);
  const sessionHeader = reader.string(map, "session_header", path)?.trim();
  if (sessionHeader && !HEADER_NAME.test(sessionHeader)) {
    reader.problem([...path, "session_header"], `"${sessionHeader}" is not a valid HTTP header name`);
  }
  const models = readModels(reader, map, path, protocol);
  const timing = readRequestTiming(reader, map, path);
  const apiKey = reader.string(map, "api_key", path) ?? "";
  // A key pasted with its line ending (a file saved on Windows keeps "\r" through $(cat ...)) would make every request fail as unreachable.
  if (/[\r\n\0]/.test(apiKey))
    reader.problem([...path, "api_key"], "must not contain line breaks (was the key copied with its line ending?)");

  if (reader.problems.length > problemsBefore || protocol === undefined) return undefined;
  const settings: ProviderSettings = {
    name,
    protocol,
    baseUrl,
    apiKey,
    headers,
    models,
    unset: reader.unsetUnder(path),
    timing,
    apiKeySource: readApiKeySource(reader, map, path),
  };
  if (presetText !== undefined) settings.preset = presetText;
  if (sessionHeader) settings.sessionHeader = sessionHeader;
  if (script !== undefined) settings.script = script;
  return settings;
}

function readBaseUrl(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: string[],
  protocol: string | undefined,
  fromPreset: boolean,
  presetUrl: string,
): string {
  const written = reader.string(map, "base_url", path)?.trim();
  const at = [...path, "base_url"];
  if (protocol === "replay") {
    if (written) reader.problem(at, "is not used by the replay protocol (remove it)");
    return "";
  }
  // A URL built from an unset variable is reported when the provider is used, not here.
  if (reader.unsetUnder(at).length > 0) return (written ?? "").replace(/\/+$/, "");
  if (!written) {
    if (protocol !== undefined && !fromPreset) reader.problem(at, `is required with protocol "${protocol}"`);
    return presetUrl;
  }
  if (!isHttpUrl(written)) {
    reader.problem(at, `must be an http:// or https:// URL (got "${written}")`);
    return "";
  }
  return written.replace(/\/+$/, "");
}

function readScript(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: string[],
  protocol: string | undefined,
  base: PathBase,
): string | undefined {
  const written = reader.string(map, "script", path)?.trim();
  const at = [...path, "script"];
  if (protocol !== undefined && protocol !== "replay") {
    if (written !== undefined) reader.problem(at, `is only used by protocol "replay"`);
    return undefined;
  }
  if (protocol === undefined) return undefined;
  if (!written) {
    reader.problem(at, `is required with protocol "replay" (the path of a replay script)`);
    return undefined;
  }
  return resolveUserPath(written, base);
}

/** Whether `text` is an http:// or https:// URL (a provider's base_url, an MCP server's url). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** `~` and `~/x` from home; relative paths from the configuration file's directory. */
export function resolveUserPath(written: string, base: PathBase): string {
  if (written === "~") return base.home;
  if (written.startsWith("~/")) return join(base.home, written.slice(2));
  return isAbsolute(written) ? resolve(written) : resolve(base.configDir, written);
}

/** `headers:` of a provider or an MCP server: names are HTTP tokens, values one line. */
export function readHeaders(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: readonly string[],
): Record<string, string> {
  const at = [...path, "headers"];
  const headers: Record<string, string> = {};
  const written = reader.mapping(map.headers, at);
  if (!written) return headers;
  for (const name of Object.keys(written)) {
    const value = reader.string(written, name, at) ?? "";
    if (!HEADER_NAME.test(name)) {
      reader.problem([...at, name], `"${name}" is not a valid HTTP header name`);
    } else if (/[\r\n\0]/.test(value)) {
      reader.problem([...at, name], "a header value must not contain line breaks");
    } else {
      headers[name] = value;
    }
  }
  return headers;
}

function readModels(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: string[],
  protocol: ProviderSettings["protocol"] | undefined,
): Map<string, ModelSettings> {
  const at = [...path, "models"];
  const models = new Map<string, ModelSettings>();
  const written = reader.mapping(map.models, at);
  if (!written) return models;
  for (const [alias, value] of reader.entries(written, at)) {
    const modelPath = [...at, alias];
    if (alias.trim() === "") {
      reader.problem(modelPath, "a model alias must not be empty");
      continue;
    }
    const settings = reader.mapping(value, modelPath);
    if (!settings) continue;
    reader.knownKeys(settings, MODEL_KEYS, modelPath);
    const model: ModelSettings = {
      alias,
      id: reader.string(settings, "id", modelPath)?.trim() || alias,
      timing: readRequestTiming(reader, settings, modelPath),
    };
    const maxTokens = unsetWhenZero(reader.nonNegativeInteger(settings, "max_tokens", modelPath));
    const temperature = reader.numberBetween(settings, "temperature", modelPath, 0, 2);
    const topP = reader.numberBetween(settings, "top_p", modelPath, 0, 1);
    const contextWindow = unsetWhenZero(reader.nonNegativeInteger(settings, "context_window", modelPath));
    const thinkingMaxTokens = unsetWhenZero(reader.nonNegativeInteger(settings, "thinking_max_tokens", modelPath));
    const levelText = unsetWhenEmpty(reader.string(settings, "thinking_level", modelPath));
    if (maxTokens !== undefined) model.maxTokens = maxTokens;
    if (temperature !== undefined) model.temperature = temperature;
    if (topP !== undefined) model.topP = topP;
    if (contextWindow !== undefined) model.contextWindow = contextWindow;
    if (thinkingMaxTokens !== undefined) model.thinkingMaxTokens = thinkingMaxTokens;
    if (levelText !== undefined) {
      const level = levelText.trim().toLowerCase();
      if ((THINKING_LEVELS as readonly string[]).includes(level)) model.thinkingLevel = level as ThinkingLevel;
      else
        reader.problem(
          [...modelPath, "thinking_level"],
          `unknown thinking level "${levelText}" (${didYouMean(level, THINKING_LEVELS)}known levels: ${THINKING_LEVELS.join(", ")})`,
        );
    }
    const cache = reader.boolean(settings, "cache", modelPath);
    if (cache !== undefined) model.cache = cache;
    const sendThinking = reader.boolean(settings, "send_thinking", modelPath);
    if (sendThinking !== undefined) {
      model.sendThinking = sendThinking;
      if (protocol !== undefined && protocol !== "openai_chat_completions") {
        reader.warning(
          [...modelPath, "send_thinking"],
          `is only used by protocol "openai_chat_completions" (this provider uses ${protocol}); remove it`,
        );
      }
    }
    const prices = readPrices(reader, settings.cost, [...modelPath, "cost"]);
    if (prices) model.prices = prices;
    const rules = readRequestRules(reader, settings, modelPath, protocol);
    if (rules !== undefined) model.requestRules = rules;
    const structured = readStructuredOutput(reader, settings, modelPath);
    if (structured !== undefined) model.structuredOutput = structured;
    const textCalls = readToolCallsInText(reader, settings, modelPath, protocol);
    if (textCalls !== undefined) model.toolCallsInText = textCalls;
    if (protocol !== undefined) warnSettingsNotSent(reader, model, protocol, modelPath);
    models.set(alias, model);
  }
  return models;
}

/** `cost: {input, output, cache_read, cache_write}` in dollars per million tokens; input and output are required. */
function readPrices(reader: ConfigReader, value: unknown, path: string[]): ModelPrices | undefined {
  if (value === null || value === undefined) return undefined;
  const map = reader.mapping(value, path);
  if (!map) return undefined;
  reader.knownKeys(map, COST_KEYS, path);
  const read = (key: string) => reader.numberBetween(map, key, path, 0, MAX_PRICE);
  const input = read("input");
  const output = read("output");
  const cacheRead = read("cache_read");
  const cacheWrite = read("cache_write");
  const absent = (["input", "output"] as const).filter((key) => map[key] === undefined || map[key] === null);
  if (absent.length > 0)
    reader.problem(
      path,
      `needs ${absent.join(" and ")} (dollars per million tokens); cache_read and cache_write are optional`,
    );
  if (input === undefined || output === undefined) return undefined;
  const prices: ModelPrices = { input, output };
  if (cacheRead !== undefined) prices.cacheRead = cacheRead;
  if (cacheWrite !== undefined) prices.cacheWrite = cacheWrite;
  return prices;
}

/** `request_rules`: one of REQUEST_RULES; a forced set of rules only on the protocols it belongs to. */
function readRequestRules(
  reader: ConfigReader,
  settings: Record<string, unknown>,
  modelPath: string[],
  protocol: ProtocolName | undefined,
): RequestRules | undefined {
  const text = reader.string(settings, "request_rules", modelPath);
  if (text === undefined) return undefined;
  const at = [...modelPath, "request_rules"];
  const value = text.trim().toLowerCase();
  if (!(REQUEST_RULES as readonly string[]).includes(value)) {
    reader.problem(
      at,
      `unknown request rules "${text}" (${didYouMean(value, REQUEST_RULES)}known: ${REQUEST_RULES.join(", ")})`,
    );
    return undefined;
  }
  const rules = value as RequestRules;
  const protocols = RULES_PROTOCOLS[rules];
  if (protocols && protocol !== undefined && !protocols.includes(protocol)) {
    reader.problem(
      at,
      `"${rules}" is for protocol ${protocols.join(" or ")} (this provider uses ${protocol}); use auto or as_written`,
    );
    return undefined;
  }
  return rules;
}

/** `structured_output`: how `--schema` asks this model for its answer (docs/pipelines.md). */
function readStructuredOutput(
  reader: ConfigReader,
  settings: Record<string, unknown>,
  modelPath: string[],
): StructuredOutput | undefined {
  const text = reader.string(settings, "structured_output", modelPath);
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if ((STRUCTURED_OUTPUTS as readonly string[]).includes(value)) return value as StructuredOutput;
  reader.problem(
    [...modelPath, "structured_output"],
    `unknown structured output "${text}" (${didYouMean(value, STRUCTURED_OUTPUTS)}known: ${STRUCTURED_OUTPUTS.join(", ")})`,
  );
  return undefined;
}

/** `tool_calls_in_text` (new): which text forms of tool call to read; Chat Completions only. */
function readToolCallsInText(
  reader: ConfigReader,
  settings: Record<string, unknown>,
  modelPath: string[],
  protocol: ProviderSettings["protocol"] | undefined,
): TextToolCallSetting | undefined {
  const text = reader.string(settings, "tool_calls_in_text", modelPath);
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if (!(TEXT_TOOL_CALL_SETTINGS as readonly string[]).includes(value)) {
    reader.problem(
      [...modelPath, "tool_calls_in_text"],
      `unknown form "${text}" (${didYouMean(value, TEXT_TOOL_CALL_SETTINGS)}known: ${TEXT_TOOL_CALL_SETTINGS.join(", ")})`,
    );
    return undefined;
  }
  if (protocol !== undefined && protocol !== "openai_chat_completions") {
    reader.warning(
      [...modelPath, "tool_calls_in_text"],
      `is only used by protocol "openai_chat_completions" (this provider uses ${protocol}); remove it`,
    );
  }
  return value as TextToolCallSetting;
}

/**
 * Settings the model's rules keep off the wire or change (settings-plan.ts,
 * the same plan the request builders follow) load with a warning each, which
 * `rienda doctor` lists and a run of the model repeats on stderr.
 */
function warnSettingsNotSent(
  reader: ConfigReader,
  model: ModelSettings,
  protocol: ProtocolName,
  modelPath: string[],
): void {
  const plan = planSettings({
    protocol,
    wireId: model.id,
    temperature: model.temperature,
    topP: model.topP,
    thinkingLevel: model.thinkingLevel,
    thinkingMaxTokens: model.thinkingMaxTokens,
    requestRules: model.requestRules,
  });
  for (const notice of plan.notices) reader.warning([...modelPath, notice.key], notice.message);
}

/**
 * The Go original read its settings into plain string fields, where `key: ""`
 * and a key left out are the same thing: an empty protocol, preset or
 * thinking_level is "not set", so its old files keep loading.
 */
function unsetWhenEmpty(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}

/** The Go original read 0 as "not set" for token counts; old files keep working. */
function unsetWhenZero(value: number | undefined): number | undefined {
  return value === 0 ? undefined : value;
}
