/**
 * Which of a model's settings go on the wire, and how: the one place that
 * decides it, read by the request builders and by config validation (whose
 * warnings are the notices below), so what `rienda doctor` says is exactly
 * what is sent.
 */
import { adaptiveClaudeRules, claudeRules, type ClaudeRules } from "./claude-model.ts";
import { openAIRules, reasoningOpenAIRules, type OpenAIRules } from "./openai-model.ts";
import type { ResolvedModel } from "./types.ts";

/** The settings the plan reads. */
export type PlannedSettings = Pick<
  ResolvedModel,
  "protocol" | "wireId" | "temperature" | "topP" | "thinkingLevel" | "thinkingMaxTokens" | "requestRules"
>;

/** A setting that is not sent as written, in the config key's name, and why. */
export interface SettingNotice {
  key: "temperature" | "top_p" | "thinking_level" | "thinking_max_tokens";
  message: string;
}

/** Anthropic's `output_config.effort` values Rienda sends. */
export type AnthropicEffort = "low" | "medium" | "high";

/** What goes on the wire; absent fields are not sent. */
export interface SettingsPlan {
  temperature?: number;
  topP?: number;
  /** Anthropic: the `thinking` object. */
  thinking?: Record<string, unknown>;
  /** Anthropic: `output_config.effort`. */
  effort?: AnthropicEffort;
  /** Chat Completions `reasoning_effort` / Responses `reasoning.effort`. */
  reasoningEffort?: string;
  /** Chat Completions: send the answer limit as `max_completion_tokens` (OpenAI reasoning models refuse `max_tokens`). */
  maxCompletionTokens?: boolean;
  /** Responses: the model reasons (ask for encrypted reasoning). */
  reasons?: boolean;
  /** Anthropic: beta features the request uses (`anthropic-beta`). */
  betas?: string[];
  notices: SettingNotice[];
}

/** Plans the settings of `model` for its protocol. */
export function planSettings(model: PlannedSettings): SettingsPlan {
  if (model.protocol === "anthropic") return planAnthropic(model);
  if (model.protocol === "openai_chat_completions" || model.protocol === "openai_responses") return planOpenAI(model);
  return { notices: [] };
}

function planAnthropic(model: PlannedSettings): SettingsPlan {
  const rules =
    model.requestRules === "as_written"
      ? undefined
      : model.requestRules === "claude_adaptive"
        ? adaptiveClaudeRules(model.wireId)
        : claudeRules(model.wireId);
  const plan: SettingsPlan = { notices: [] };
  const budget = model.thinkingMaxTokens;
  const level = model.thinkingLevel;
  if (!rules) {
    // As written: the budget as Rienda always sent it; effort only on models known to take it.
    if (budget !== undefined) plan.thinking = { type: "enabled", budget_tokens: budget };
    if (level !== undefined) {
      plan.notices.push({
        key: "thinking_level",
        message: `is not sent: Rienda sends Anthropic's effort only to Claude models it knows (${model.wireId} is not one); set request_rules: claude_adaptive if this model takes it`,
      });
    }
    addSampling(plan, model, "any", budget !== undefined);
    return plan;
  }
  if (rules.thinking === "adaptive") {
    if (budget !== undefined || level !== undefined) plan.thinking = { type: "adaptive", display: "summarized" };
    if (budget !== undefined) {
      plan.notices.push({
        key: "thinking_max_tokens",
        message: `is not sent as a budget: ${rules.name} thinks adaptively and refuses a thinking budget (HTTP 400), so Rienda asks for adaptive thinking instead${level === undefined ? "; thinking_level sets how hard it thinks" : ""}`,
      });
    }
  } else if (budget !== undefined) {
    // Claude 4.6 still takes a budget (deprecated); turning thinking on from thinking_level alone would
    // change what an older model block did (and drop its temperature), so there the level is only the effort.
    plan.thinking = { type: "enabled", budget_tokens: budget };
  }
  if (level !== undefined) {
    if (rules.effort) plan.effort = anthropicEffort(level);
    else
      plan.notices.push({
        key: "thinking_level",
        message: `is not sent: ${rules.name} takes no effort setting (Anthropic refuses it); thinking_max_tokens sets its thinking`,
      });
  }
  addSampling(plan, model, rules.sampling, plan.thinking !== undefined, rules);
  if (rules.preservedThinking) {
    // A thinking block whose prefix changed (compaction summarised what came before it, AGENTS.md or the
    // tools changed before a -s continuation) is dropped instead of failing every later request with a 400.
    // These models think adaptively by default, so stating it changes nothing else.
    plan.thinking = {
      ...(plan.thinking ?? { type: "adaptive" }),
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    };
    plan.betas = [THINKING_BINDING_BETA];
  }
  return plan;
}

/** The beta that lets a request choose what happens to thinking blocks whose prefix changed. */
const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** Anthropic has no "minimal": its lowest effort is "low" (config.yaml's levels are checked, so nothing else arrives here). */
function anthropicEffort(level: string): AnthropicEffort {
  return level === "medium" || level === "high" ? level : "low";
}

function addSampling(
  plan: SettingsPlan,
  model: PlannedSettings,
  sampling: ClaudeRules["sampling"],
  thinking: boolean,
  rules?: ClaudeRules,
): void {
  const written = [
    ["temperature", model.temperature],
    ["top_p", model.topP],
  ] as const;
  for (const [key, value] of written) {
    if (value === undefined) continue;
    if (sampling === "none") {
      plan.notices.push({
        key,
        message: `is not sent: ${rules?.name ?? model.wireId} refuses sampling settings (HTTP 400); remove ${key}`,
      });
    } else if (thinking) {
      plan.notices.push({
        key,
        message: `is not sent: Anthropic refuses ${key} when thinking is enabled (thinking_max_tokens or thinking_level is set); remove ${key}, or those settings to keep it`,
      });
    } else if (sampling === "one" && key === "top_p" && model.temperature !== undefined) {
      plan.notices.push({
        key,
        message: `is not sent: ${rules?.name ?? model.wireId} refuses temperature and top_p together (HTTP 400), so only temperature is sent; remove one of them`,
      });
    } else if (key === "temperature") {
      plan.temperature = value;
    } else {
      plan.topP = value;
    }
  }
}

function planOpenAI(model: PlannedSettings): SettingsPlan {
  const plan: SettingsPlan = { notices: [] };
  const rules: OpenAIRules | undefined =
    model.requestRules === "as_written"
      ? undefined
      : model.requestRules === "openai_reasoning"
        ? reasoningOpenAIRules(model.wireId)
        : openAIRules(model.wireId);
  const level = model.thinkingLevel;
  if (!rules || !rules.reasoning) {
    if (model.temperature !== undefined) plan.temperature = model.temperature;
    if (model.topP !== undefined) plan.topP = model.topP;
    if (level !== undefined && rules) {
      plan.notices.push({
        key: "thinking_level",
        message: `is not sent: ${rules.name} does not reason and refuses a reasoning effort (HTTP 400); remove thinking_level`,
      });
    } else if (level !== undefined) {
      plan.reasoningEffort = level;
    }
    // Unknown ids keep the old guess (a reasoning family's name, or a thinking_level) for asking encrypted reasoning.
    plan.reasons = rules ? false : level !== undefined || looksLikeReasoning(model.wireId);
    return plan;
  }
  plan.reasons = true;
  plan.maxCompletionTokens = true;
  for (const [key, value] of [
    ["temperature", model.temperature],
    ["top_p", model.topP],
  ] as const) {
    if (value === undefined) continue;
    if (rules.samplingWithoutEffort && level === undefined) {
      // Its default effort is none, where sampling settings are taken.
      if (key === "temperature") plan.temperature = value;
      else plan.topP = value;
    } else {
      const why = rules.samplingWithoutEffort ? ` with a reasoning effort set (thinking_level)` : "";
      plan.notices.push({
        key,
        message: `is not sent: ${rules.name} is a reasoning model and refuses ${key}${why} (HTTP 400); remove ${key}`,
      });
    }
  }
  if (level !== undefined) {
    if (rules.onlyEffort !== undefined && level !== rules.onlyEffort) {
      plan.reasoningEffort = rules.onlyEffort;
      plan.notices.push({
        key: "thinking_level",
        message: `is sent as ${rules.onlyEffort}: ${rules.name} takes no other effort (HTTP 400 otherwise)`,
      });
    } else if (rules.refusedEfforts.includes(level)) {
      plan.reasoningEffort = "low";
      plan.notices.push({
        key: "thinking_level",
        message: `is sent as low: ${rules.name} refuses "${level}" (HTTP 400); its efforts start at low (or none, which turns reasoning off)`,
      });
    } else {
      plan.reasoningEffort = level;
    }
  }
  return plan;
}

/** The guess Rienda made before knowing model rules, kept for ids it cannot place. */
function looksLikeReasoning(wireId: string): boolean {
  const id = wireId.toLowerCase().replace(/^.*\//, "");
  return /^(o\d|gpt-5|codex)/.test(id) || id.includes("codex");
}
