/**
 * What a Claude model accepts, read from its id. Anthropic changed the
 * request rules from one generation to the next (docs/providers.md,
 * "Model rules"), so the same settings need a different request:
 *
 * - Claude 3.7 to 4.5 think only with a budget (`thinking: {type: "enabled",
 *   budget_tokens}`); 4.1 to 4.5 refuse `temperature` and `top_p` together.
 * - Claude 4.6 (and Mythos Preview) take a budget (deprecated) or adaptive
 *   thinking, and the effort setting.
 * - Claude 4.7 and later (Opus 4.7+, Sonnet 5+, Haiku 5.5, Fable, Mythos 5)
 *   think only adaptively: a budget is refused with HTTP 400, and so is any
 *   non-default `temperature`, `top_p` or `top_k`.
 *
 * Effort (`output_config.effort`) is taken by Opus 4.5 and every model from
 * 4.6 on; Sonnet 4.5, Haiku 4.5 and older refuse it. From Fable 5.1, Opus
 * 5.5, Sonnet 5.5 and Haiku 5.5 on, thinking is "preserved": a thinking block
 * sent back is checked against everything before it.
 */

/** How a model thinks: with a budget only, either way, or adaptively only. */
export type ClaudeThinking = "budget" | "both" | "adaptive";

/** Which sampling settings a model takes: any, one of temperature and top_p, or none. */
export type ClaudeSampling = "any" | "one" | "none";

/** The request rules of one Claude model. */
export interface ClaudeRules {
  /** How the model is named in messages, e.g. "Claude Sonnet 5". */
  name: string;
  thinking: ClaudeThinking;
  /** Whether `output_config.effort` is accepted. */
  effort: boolean;
  sampling: ClaudeSampling;
  /** Thinking blocks are bound to what preceded them (preserved thinking). */
  preservedThinking: boolean;
}

const FAMILIES = "opus|sonnet|haiku|fable|mythos";
// claude-sonnet-5-5, claude-opus-4-1-20250805 (a date is 8 digits, never a minor), claude-sonnet-4.5
const NEW_STYLE = new RegExp(`^(${FAMILIES})-(\\d+)(?:[-.](\\d{1,2})(?!\\d))?`);
// claude-3-7-sonnet-20250219, claude-3-5-haiku-latest, claude-3-opus-20240229
const OLD_STYLE = new RegExp(`^(\\d+)(?:[-.](\\d))?-(${FAMILIES})`);

/**
 * The rules of the Claude model `wireId` names, or undefined when it names
 * none Rienda knows (another vendor's model behind an Anthropic-compatible
 * API, a proxy alias). Provider prefixes are ignored: `anthropic/…`
 * (gateways), `us.anthropic.…` (Bedrock), `…@date` (Vertex).
 */
export function claudeRules(wireId: string): ClaudeRules | undefined {
  const lower = wireId.toLowerCase();
  const at = lower.lastIndexOf("claude-");
  if (at < 0) return undefined;
  const rest = lower.slice(at + "claude-".length);
  if (rest.startsWith("mythos-preview"))
    return {
      name: "Claude Mythos Preview",
      thinking: "both",
      effort: true,
      sampling: "none",
      preservedThinking: false,
    };
  let family: string;
  let major: number;
  let minor: number;
  const modern = NEW_STYLE.exec(rest);
  const old = modern ? null : OLD_STYLE.exec(rest);
  if (modern) {
    family = modern[1] ?? "";
    major = Number(modern[2]);
    minor = modern[3] === undefined ? 0 : Number(modern[3]);
  } else if (old) {
    family = old[3] ?? "";
    major = Number(old[1]);
    minor = old[2] === undefined ? 0 : Number(old[2]);
  } else {
    return undefined;
  }
  const name = `Claude ${family.charAt(0).toUpperCase()}${family.slice(1)} ${minor === 0 ? major : `${major}.${minor}`}`;
  const version = major * 100 + minor;
  if (version >= 407 || family === "fable" || family === "mythos") {
    const preservedThinking = family === "fable" || family === "mythos" ? version >= 501 : version >= 505;
    return { name, thinking: "adaptive", effort: true, sampling: "none", preservedThinking };
  }
  if (version === 406) return { name, thinking: "both", effort: true, sampling: "one", preservedThinking: false };
  if (version >= 401)
    return {
      name,
      thinking: "budget",
      effort: family === "opus" && version === 405,
      sampling: "one",
      preservedThinking: false,
    };
  return { name, thinking: "budget", effort: false, sampling: "any", preservedThinking: false };
}

/** The rules `request_rules: claude_adaptive` asks for: those of Claude 4.7 and later. */
export function adaptiveClaudeRules(wireId: string): ClaudeRules {
  return {
    name: `${wireId} (request_rules: claude_adaptive)`,
    thinking: "adaptive",
    effort: true,
    sampling: "none",
    preservedThinking: false,
  };
}
