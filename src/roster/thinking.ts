/**
 * Thinking levels (go-current.md §6): what a model offers and how a chosen
 * level is put on the model. A provider module's model declares its levels
 * (`thinking_modes`); a config.yaml model offers config.yaml's
 * `thinking_level` values. `off` (or `none`) is always offered: no thinking.
 */
import { RiendaError } from "../errors.ts";
import type { ResolvedModel } from "../providers/index.ts";

/** The level that means no thinking; `none` is read as it too. */
export const THINKING_OFF = "off";
const OFF_SPELLINGS: readonly string[] = ["off", "none"];
/** config.yaml's `thinking_level` values, offered by every config.yaml model. */
const CONFIG_LEVELS: readonly string[] = ["minimal", "low", "medium", "high"];

/** Every level `model` accepts, `off` first. */
export function thinkingLevels(model: ResolvedModel): string[] {
  if (model.thinkingModes === undefined) return [THINKING_OFF, ...CONFIG_LEVELS];
  return [THINKING_OFF, ...(model.reasoning ? model.thinkingModes.map((m) => m.level) : [])];
}

/** The level in force on `model` as resolved: config.yaml's `thinking_level`, or off. */
export function currentThinking(model: ResolvedModel): string {
  return model.thinkingLevel ?? THINKING_OFF;
}

/** Whether `level` is one `model` accepts (`none` counting as `off`). */
export function offersThinking(model: ResolvedModel, level: string): boolean {
  return OFF_SPELLINGS.includes(level) || thinkingLevels(model).includes(level);
}

/**
 * `model` thinking at `level`. Off removes every thinking setting; a module's
 * level sends its name (reasoning effort) and, for Anthropic, the mode's
 * `max_tokens` as the budget when above 0. Throws a RiendaError listing the
 * model's levels when it does not offer `level`.
 */
export function withThinking(model: ResolvedModel, level: string, setting = "--thinking"): ResolvedModel {
  if (!offersThinking(model, level)) {
    throw new RiendaError(
      "usage",
      `${setting} ${level}: ${model.ref} has no thinking level "${level}" (its levels: ${thinkingLevels(model).join(", ")})`,
    );
  }
  const { thinkingLevel: _level, thinkingMaxTokens: _budget, ...rest } = model;
  if (OFF_SPELLINGS.includes(level)) return rest;
  if (model.thinkingModes === undefined) return { ...model, thinkingLevel: level };
  const mode = model.thinkingModes.find((m) => m.level === level)!;
  return { ...rest, thinkingLevel: level, ...(mode.maxTokens > 0 ? { thinkingMaxTokens: mode.maxTokens } : {}) };
}

/** `off` for either spelling, the level itself otherwise: what a session entry records. */
export function thinkingName(level: string): string {
  return OFF_SPELLINGS.includes(level) ? THINKING_OFF : level;
}
