/** Settling a `provider/alias` reference into everything an adapter needs. */
import { RiendaError } from "../errors.ts";
import { didYouMean } from "../values.ts";
import type { RequestTiming, ResolvedModel } from "../providers/types.ts";
import { formatKeyPath } from "./key-path.ts";
import { fillFromCatalogue } from "./catalogue-figures.ts";
import { defaultPrices } from "./default-prices.ts";
import { sendsThinkingByDefault } from "./presets.ts";
import { splitModelRef } from "./split-model-ref.ts";
import type { ModelSettings, ProviderSettings } from "./types.ts";

/**
 * Resolves `ref` against `providers` (declared in `file`). Throws a
 * RiendaError (code "config") for a malformed reference, an unknown provider
 * or model, and for a provider field whose `${NAME}` was unset.
 */
export function resolveModel(
  providers: ReadonlyMap<string, ProviderSettings>,
  file: string,
  ref: string,
): ResolvedModel {
  const parts = splitModelRef(ref);
  if (!parts) throw new RiendaError("config", `model reference "${ref}" must have the form provider/alias`);
  const provider = providers.get(parts.provider);
  if (!provider) {
    const known = [...providers.keys()];
    throw new RiendaError(
      "config",
      `unknown provider "${parts.provider}" (${didYouMean(parts.provider, known)}providers in ${file}: ${known.join(", ")})`,
    );
  }
  const model = provider.models.get(parts.alias);
  if (!model) {
    const known = [...provider.models.keys()];
    const hint =
      known.length > 0 ? `${didYouMean(parts.alias, known)}models: ${known.join(", ")}` : "it declares no models";
    throw new RiendaError("config", `unknown model "${parts.alias}" in provider "${parts.provider}" (${hint})`);
  }
  const modelsPath = formatKeyPath(["providers", provider.name, "models"]);
  const ownPath = formatKeyPath(["providers", provider.name, "models", model.alias]);
  const unset = provider.unset.find(
    (u) => !isUnder(u.path, modelsPath) || u.path === ownPath || isUnder(u.path, ownPath),
  );
  if (unset) {
    throw new RiendaError(
      "config",
      `${file}: ${unset.path}: environment variable ${unset.variable} is not set (needed by ${parts.provider}/${parts.alias})`,
    );
  }
  const own = model.overrides ?? {};
  const resolved: ResolvedModel = {
    ref: `${parts.provider}/${parts.alias}`,
    provider: provider.name,
    alias: model.alias,
    wireId: model.id,
    protocol: own.protocol ?? provider.protocol,
    baseUrl: own.baseUrl ?? provider.baseUrl,
    apiKey: provider.apiKey,
    // A module's model merges its headers key by key over its provider's (go-current.md §3).
    headers: { ...provider.headers, ...own.headers },
  };
  const sessionHeader = own.sessionHeader ?? provider.sessionHeader;
  if (sessionHeader !== undefined) resolved.sessionHeader = sessionHeader;
  if (provider.origin !== undefined && provider.origin !== "config") {
    // A module's declaration is what goes on the wire, as the Go program sends it (go-current.md §6).
    resolved.requestRules = "as_written";
    resolved.thinkingModes = (model.thinkingModes ?? []).map((mode) => ({ ...mode }));
    resolved.reasoning = model.reasoning === true;
  }
  if (model.maxOutputTokens !== undefined && model.maxTokens === undefined) resolved.maxTokens = model.maxOutputTokens;
  if (model.name !== undefined) resolved.name = model.name;
  if (provider.script !== undefined) resolved.script = provider.script;
  if (model.maxTokens !== undefined) resolved.maxTokens = model.maxTokens;
  if (model.temperature !== undefined) resolved.temperature = model.temperature;
  if (model.topP !== undefined) resolved.topP = model.topP;
  if (model.contextWindow !== undefined) resolved.contextWindow = model.contextWindow;
  if (model.thinkingLevel !== undefined) resolved.thinkingLevel = model.thinkingLevel;
  if (model.thinkingMaxTokens !== undefined) resolved.thinkingMaxTokens = model.thinkingMaxTokens;
  if (model.cache !== undefined) resolved.cache = model.cache;
  if (model.requestRules !== undefined && model.requestRules !== "auto") resolved.requestRules = model.requestRules;
  if (model.structuredOutput !== undefined) resolved.structuredOutput = model.structuredOutput;
  if (model.toolCallsInText !== undefined) resolved.toolCallsInText = model.toolCallsInText;
  const sendThinking = model.sendThinking ?? sendsThinkingByDefault(provider.preset, provider.baseUrl);
  if (sendThinking !== undefined && provider.protocol === "openai_chat_completions")
    resolved.sendThinking = sendThinking;
  const prices = model.prices ?? defaultPrices(provider.preset, model.id);
  if (prices !== undefined) resolved.prices = { ...prices };
  fillFromCatalogue(resolved, provider.preset);
  resolved.timing = requestTiming(provider, model);
  resolved.apiKeySource = provider.apiKeySource;
  return resolved;
}

/** Resolves `ref` against one provider (a provider module's, declared in `file`). */
export function resolveProviderModel(provider: ProviderSettings, file: string, ref: string): ResolvedModel {
  return resolveModel(new Map([[provider.name, provider]]), file, ref);
}

/** The model's timing keys over the provider's; each names the key that set it, or the provider's key when the default applies. */
function requestTiming(provider: ProviderSettings, model: ModelSettings): RequestTiming {
  const providerPath = ["providers", provider.name];
  const modelPath = [...providerPath, "models", model.alias];
  const keyOf = (yamlKey: string, onModel: boolean) =>
    formatKeyPath([...(onModel ? modelPath : providerPath), yamlKey]);
  const timing: RequestTiming = {
    keys: {
      timeout: keyOf("timeout", model.timing.timeoutMs !== undefined),
      idleTimeout: keyOf("idle_timeout", model.timing.idleTimeoutMs !== undefined),
      retries: keyOf("retries", model.timing.retries !== undefined),
    },
  };
  const timeoutMs = model.timing.timeoutMs ?? provider.timing.timeoutMs;
  const idleTimeoutMs = model.timing.idleTimeoutMs ?? provider.timing.idleTimeoutMs;
  const retries = model.timing.retries ?? provider.timing.retries;
  if (timeoutMs !== undefined) timing.timeoutMs = timeoutMs;
  if (idleTimeoutMs !== undefined) timing.idleTimeoutMs = idleTimeoutMs;
  if (retries !== undefined) timing.retries = retries;
  return timing;
}

function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}
