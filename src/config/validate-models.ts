/**
 * Validation of a provider's `models:` entries: each model's sampling, token,
 * thinking, price and wire settings, with a warning for every setting its
 * protocol's rules keep off the wire.
 */
import { planSettings, TEXT_TOOL_CALL_SETTINGS, type TextToolCallSetting } from "../providers/index.ts";
import type { ModelPrices, ProtocolName, RequestRules, StructuredOutput, ThinkingLevel } from "../providers/types.ts";
import { didYouMean } from "../values.ts";
import type { ConfigReader } from "./config-reader.ts";
import { readRequestTiming, REQUEST_TIMING_KEYS } from "./read-request-timing.ts";
import type { ModelSettings, ProviderSettings } from "./types.ts";
import { unsetWhenEmpty, unsetWhenZero } from "./unset-when.ts";

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

/** `providers.<name>.models`: alias -> its settings; problems go to `reader`, a broken model is left out. */
export function readModels(
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
