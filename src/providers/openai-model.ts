/**
 * What an OpenAI model accepts, read from its id (docs/providers.md, "Model
 * rules"). OpenAI's reasoning models (o1, o3, o4-mini, codex-mini and the
 * gpt-5 family) refuse `temperature` and `top_p` and, on Chat Completions,
 * `max_tokens` (they take `max_completion_tokens`). From gpt-5.1 on the
 * lowest effort is `none` and `minimal` is refused; gpt-5.1 and later
 * default to `none`, where sampling settings are taken; gpt-5-pro takes only
 * `high`. Models that do not reason (gpt-4o, gpt-4.1, the gpt-5 chat
 * models) refuse any reasoning effort.
 */

/** The request rules of one OpenAI model. */
export interface OpenAIRules {
  /** The id as named in messages. */
  name: string;
  /** True for a reasoning model, false for one that does not reason. */
  reasoning: boolean;
  /** Reasoning models only: the effort values the model refuses. */
  refusedEfforts: readonly string[];
  /** Reasoning models only: the one effort value the model takes, when it takes only one. */
  onlyEffort?: string;
  /**
   * Reasoning models whose default effort is `none` (gpt-5.1 and later,
   * the plain models): with no effort set they take `temperature` and `top_p`.
   */
  samplingWithoutEffort?: boolean;
}

/**
 * The rules of the OpenAI model `wireId` names, or undefined when it is not
 * an OpenAI model Rienda knows (most Chat Completions servers host other
 * vendors' models, whose rules are theirs). A gateway prefix (`openai/…`) is
 * ignored.
 */
export function openAIRules(wireId: string): OpenAIRules | undefined {
  const name = wireId;
  const id = wireId.toLowerCase().replace(/^.*\//, "");
  if (/^gpt-5(\.\d+)?-chat/.test(id) || /^(gpt-4|gpt-3\.5|chatgpt-4o)/.test(id))
    return { name, reasoning: false, refusedEfforts: [] };
  if (/^gpt-5-pro/.test(id)) return { name, reasoning: true, refusedEfforts: [], onlyEffort: "high" };
  const point = /^gpt-5\.(\d+)/.exec(id);
  if (point && Number(point[1]) >= 1) {
    const rules: OpenAIRules = { name, reasoning: true, refusedEfforts: ["minimal"] };
    if (/^gpt-5\.\d+(-\d{4}-\d{2}-\d{2})?$/.test(id)) rules.samplingWithoutEffort = true;
    return rules;
  }
  if (/^(o\d|gpt-5|codex)/.test(id) || id.includes("codex")) return { name, reasoning: true, refusedEfforts: [] };
  return undefined;
}

/** The rules `request_rules: openai_reasoning` asks for: those of a reasoning model. */
export function reasoningOpenAIRules(wireId: string): OpenAIRules {
  return { name: `${wireId} (request_rules: openai_reasoning)`, reasoning: true, refusedEfforts: [] };
}
