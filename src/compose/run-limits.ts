/**
 * Which limits bound a run (docs/cli.md "Limits"): each of the command line,
 * the agent's frontmatter and config.yaml's `limits:` may set each limit,
 * the first of them that does winning. The result names where every limit
 * was written, for the message that ends a run.
 */
import type { Agent } from "../agents/index.ts";
import type { LoadedConfig } from "../config/index.ts";
import { CostBudget, RequestBudget, type Limit, type RunLimits } from "../engine/index.ts";
import { durationText, type LimitSettings } from "../limits/index.ts";

/** Limits of one agent's run: the loop's, and the run's time (the top run's only). */
export interface ResolvedLimits {
  run: RunLimits;
  timeout?: Limit;
}

/** A subagent's share of its run tree: the one cost budget and the one request budget. */
export interface TreeBudgets {
  cost?: CostBudget;
  requests?: RequestBudget;
}

/**
 * Resolves the limits of `agent`. `tree`: the parent's budgets, for a
 * subagent, whose answers and requests count against the run tree's. The
 * top run's `max_turns` (command line, frontmatter, config.yaml) bounds the
 * whole tree; a subagent's own frontmatter `max_turns` bounds its own run
 * besides.
 */
export function resolveLimits(
  flags: LimitSettings | undefined,
  agent: Agent,
  config: LoadedConfig,
  tree?: TreeBudgets,
): ResolvedLimits {
  const own = { settings: agent.limits, setting: (key: string, text: string) => `${key}: ${text} in ${agent.file}` };
  // A subagent's limits are its frontmatter's alone: the command line's and config.yaml's are the tree's, already in `tree`.
  const sources: { settings: LimitSettings; setting: (key: string, text: string) => string }[] = tree
    ? [own]
    : [
        { settings: flags ?? {}, setting: (key, text) => `--${key.replace("_", "-")} ${text}` },
        own,
        { settings: config.limits, setting: (key, text) => `limits.${key}: ${text} in ${config.path}` },
      ];
  const pick = (
    key: "max_turns" | "max_cost" | "timeout",
    field: keyof LimitSettings,
    text: (value: number) => string,
  ): Limit | undefined => {
    for (const source of sources) {
      const value = source.settings[field];
      if (value !== undefined) return { value, setting: source.setting(key, text(value)) };
    }
    return undefined;
  };
  const maxTurns = pick("max_turns", "maxTurns", String);
  const maxCost = tree?.cost ? undefined : pick("max_cost", "maxCost", String);
  const timeout = pick("timeout", "timeoutMs", durationText);
  const cost = tree?.cost ?? (maxCost ? new CostBudget(maxCost) : undefined);
  // The top run's max_turns is the tree's request budget; a subagent's own bounds its run alone.
  const turns = tree
    ? { ...(maxTurns ? { maxTurns } : {}), ...(tree.requests ? { requests: tree.requests } : {}) }
    : maxTurns
      ? { requests: new RequestBudget(maxTurns) }
      : {};
  return { run: { ...turns, ...(cost ? { cost } : {}) }, ...(timeout ? { timeout } : {}) };
}
