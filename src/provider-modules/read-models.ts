/**
 * The `models` of a provider module's declaration (go-current.md §3) read
 * into ModelSettings: the alias is the model's id (references are
 * `provider/<id>`, split on the first "/", so an id may hold "/"), per-model
 * connection overrides keep their headers already merged over the
 * provider's, and the first broken rule refuses the whole declaration.
 */
import type { ModelConnectionOverrides, ModelSettings, ThinkingMode } from "../config/types.ts";
import { describeValue, isPlainObject } from "../values.ts";
import {
  DeclarationRefused,
  isUnset,
  readBaseUrl,
  readHeaders,
  readNumber,
  readProtocol,
  readSessionHeader,
  readText,
  readWholeNumber,
  shown,
} from "./declaration-fields.ts";

/** Levels that mean "no thinking" in a picker, so no model may declare them. */
const RESERVED_LEVELS: readonly string[] = ["off", "none"];

/** `models` (absent: none, an empty roster is legal) by id, in declaration order. */
export function readModels(
  value: unknown,
  providerHeaders: Readonly<Record<string, string>>,
): Map<string, ModelSettings> {
  const models = new Map<string, ModelSettings>();
  if (value === undefined || value === null) return models;
  if (!Array.isArray(value)) throw new DeclarationRefused(`models must be a list (it is ${describeValue(value)})`);
  value.forEach((written: unknown, index) => {
    if (!isPlainObject(written))
      throw new DeclarationRefused(`models[${index}] must be an object (it is ${describeValue(written)})`);
    if (isUnset(written.id)) throw new DeclarationRefused("models[].id is required");
    if (typeof written.id !== "string")
      throw new DeclarationRefused(`models[${index}].id must be a string (it is ${describeValue(written.id)})`);
    const id = written.id;
    if (models.has(id)) throw new DeclarationRefused(`duplicate model id ${JSON.stringify(id)}`);
    try {
      models.set(id, readModel(written, id, providerHeaders));
    } catch (error) {
      if (error instanceof DeclarationRefused)
        throw new DeclarationRefused(`model ${JSON.stringify(id)}: ${error.message}`);
      throw error;
    }
  });
  return models;
}

function readModel(
  written: Record<string, unknown>,
  id: string,
  providerHeaders: Readonly<Record<string, string>>,
): ModelSettings {
  const model: ModelSettings = { alias: id, id, timing: {} };
  const name = readText(written.name, "name");
  if (name) model.name = name;
  const overrides = readOverrides(written, providerHeaders);
  if (overrides) model.overrides = overrides;
  model.contextWindow = readContextWindow(written.context_window);
  const maxOutputTokens = readWholeNumber(written.max_output_tokens, "max_output_tokens");
  if (maxOutputTokens !== undefined && maxOutputTokens > 0) model.maxOutputTokens = maxOutputTokens;
  const maxTokens = readWholeNumber(written.max_tokens, "max_tokens");
  if (maxTokens !== undefined && maxTokens > 0) model.maxTokens = maxTokens;
  const temperature = readNumber(written.temperature, "temperature");
  if (temperature !== undefined) model.temperature = temperature;
  const topP = readNumber(written.top_p, "top_p");
  if (topP !== undefined) model.topP = topP;
  model.reasoning = readReasoning(written.reasoning);
  const modes = readThinkingModes(written.thinking_modes, model.reasoning);
  if (modes) model.thinkingModes = modes;
  return model;
}

/** `protocol`, `base_url`, `session_header` and `headers` of one model; undefined when it sets none. */
function readOverrides(
  written: Record<string, unknown>,
  providerHeaders: Readonly<Record<string, string>>,
): ModelConnectionOverrides | undefined {
  const overrides: ModelConnectionOverrides = {};
  if (!isUnset(written.protocol)) overrides.protocol = readProtocol(written.protocol);
  if (!isUnset(written.base_url)) overrides.baseUrl = readBaseUrl(written.base_url);
  const sessionHeader = readSessionHeader(written.session_header);
  if (sessionHeader !== undefined) overrides.sessionHeader = sessionHeader;
  // Key by key over the provider's: a model replaces or adds headers, the others stay.
  if (written.headers !== undefined && written.headers !== null)
    overrides.headers = { ...providerHeaders, ...readHeaders(written.headers) };
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

/** Required, as in the Go program: nothing else gives a module's model its window. */
function readContextWindow(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0)
    throw new DeclarationRefused("context_window must be a positive number of tokens");
  return value;
}

function readReasoning(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new DeclarationRefused(`reasoning must be true or false (got ${shown(value)})`);
  return value;
}

/**
 * `thinking_modes`: declared exactly when the model reasons (an empty list
 * is a reasoning model whose thinking the provider decides alone), levels
 * non-empty, not reserved, not repeated, budgets not negative.
 */
function readThinkingModes(value: unknown, reasoning: boolean): ThinkingMode[] | undefined {
  const written = value === undefined || value === null ? undefined : value;
  if (written !== undefined && !Array.isArray(written))
    throw new DeclarationRefused(
      `thinking_modes must be a list of {level, max_tokens} (it is ${describeValue(written)})`,
    );
  if (!reasoning) {
    if (written && written.length > 0)
      throw new DeclarationRefused("thinking_modes are declared on a model that does not reason");
    return undefined;
  }
  if (!written)
    throw new DeclarationRefused("thinking_modes are required on a reasoning model (an empty list is legal)");
  const modes: ThinkingMode[] = [];
  for (const mode of written as unknown[]) {
    if (!isPlainObject(mode))
      throw new DeclarationRefused(
        `a thinking mode must be an object {level, max_tokens} (it is ${describeValue(mode)})`,
      );
    const level = mode.level;
    if (isUnset(level)) throw new DeclarationRefused("a thinking mode declares no level");
    if (typeof level !== "string")
      throw new DeclarationRefused(`a thinking level must be a string (got ${shown(level)})`);
    if (RESERVED_LEVELS.includes(level))
      throw new DeclarationRefused(`thinking level ${JSON.stringify(level)} is reserved`);
    const maxTokens = readWholeNumber(mode.max_tokens, `thinking level ${JSON.stringify(level)}: max_tokens`) ?? 0;
    if (maxTokens < 0)
      throw new DeclarationRefused(`thinking level ${JSON.stringify(level)}: max_tokens must not be negative`);
    if (modes.some((m) => m.level === level))
      throw new DeclarationRefused(`duplicate thinking level ${JSON.stringify(level)}`);
    modes.push({ level, maxTokens });
  }
  return modes;
}
