/**
 * Which limits bound a run (docs/cli.md "Limits"): each of the command line,
 * the agent's frontmatter and config.yaml's `limits:` may set each limit,
 * the first of them that does winning. The result names where every limit
 * was written, for the message that ends a run.
 */
import type { Agent } from "../agents/index.ts";
import type { LoadedConfig } from "../config/index.ts";
import { CostBudget, type Limit, type RunLimits } from "../engine/index.ts";
import { durationText, type LimitSettings } from "../limits/index.ts";

/** Limits of one agent's run: the loop's, and the run's time (the top run's only). */
export interface ResolvedLimits {
  run: RunLimits;
  timeout?: Limit;
}

/**
 * Resolves the limits of `agent`. `budget`: the parent's, for a subagent,
 * whose answers count against the run tree's one budget.
 */
export function resolveLimits(flags: LimitSettings | undefined, agent: Agent, config: LoadedConfig, budget?: CostBudget): ResolvedLimits {
  const sources: { settings: LimitSettings; setting: (key: string, text: string) => string }[] = [
    { settings: flags ?? {}, setting: (key, text) => `--${key.replace("_", "-")} ${text}` },
    { settings: agent.limits, setting: (key, text) => `${key}: ${text} in ${agent.file}` },
    { settings: config.limits, setting: (key, text) => `limits.${key}: ${text} in ${config.path}` },
  ];
  const pick = (key: "max_turns" | "max_cost" | "timeout", field: keyof LimitSettings, text: (value: number) => string): Limit | undefined => {
    for (const source of sources) {
      const value = source.settings[field];
      if (value !== undefined) return { value, setting: source.setting(key, text(value)) };
    }
    return undefined;
  };
  const maxTurns = pick("max_turns", "maxTurns", String);
  const maxCost = budget ? undefined : pick("max_cost", "maxCost", String);
  const timeout = pick("timeout", "timeoutMs", durationText);
  const cost = budget ?? (maxCost ? new CostBudget(maxCost) : undefined);
  return { run: { ...(maxTurns ? { maxTurns } : {}), ...(cost ? { cost } : {}) }, ...(timeout ? { timeout } : {}) };
}
