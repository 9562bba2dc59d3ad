/**
 * The limits the loop itself enforces (docs/cli.md "Limits"): model
 * requests per run and dollars per run tree. Time is the command's, which
 * ends an overdue run as it ends an interrupted one. Each limit carries the
 * setting that imposed it, so the message that ends a run names what to
 * change.
 */
import type { ResolvedModel } from "../providers/index.ts";
import { dollarsText } from "../values.ts";

export { abortedByTimeLimit, timeLimitAbort } from "../abort-reasons.ts";

/** A limit and where it was written: `--max-turns 5`, `max_turns: 5 in /home/u/.rienda/agents/ci.md`. */
export interface Limit {
  value: number;
  setting: string;
}

/**
 * Dollars spent by a run and every subagent run under it: one budget is
 * shared by the whole tree, each run adding its own answers' cost once.
 */
export class CostBudget {
  #spent = 0;
  constructor(readonly limit: Limit) {}

  get spent(): number {
    return this.#spent;
  }

  add(dollars: number): void {
    this.#spent += dollars;
  }

  get reached(): boolean {
    return this.#spent >= this.limit.value;
  }
}

/**
 * Model requests made by a run and every subagent run under it: the top
 * run's `max_turns` is one figure bounding the whole tree, as `max_cost`
 * does (docs/cli.md "Limits"), so fan-out cannot multiply it. A chat runs
 * a tree per message: the count starts again when a run opens the budget
 * while none of its tree is running.
 */
export class RequestBudget {
  #made = 0;
  #open = 0;
  constructor(readonly limit: Limit) {}

  /** A run of the tree starts; the first (the top run) starts the count at 0. */
  open(): void {
    if (this.#open === 0) this.#made = 0;
    this.#open++;
  }

  close(): void {
    this.#open = Math.max(0, this.#open - 1);
  }

  add(): void {
    this.#made++;
  }

  get reached(): boolean {
    return this.#made >= this.limit.value;
  }
}

/**
 * What bounds one run. `requests` and `cost` are the run tree's, shared
 * with its subagents; `maxTurns` bounds this run's own requests (a
 * subagent's frontmatter `max_turns`).
 */
export interface RunLimits {
  maxTurns?: Limit;
  requests?: RequestBudget;
  cost?: CostBudget;
}

/** Why the loop stops before a request. */
export interface LimitStop {
  reason: "max_turns" | "max_cost";
  message: string;
}

/** Whether the next request may start after `requests` requests of this run. */
export function limitBeforeRequest(limits: RunLimits | undefined, requests: number): LimitStop | undefined {
  if (!limits) return undefined;
  const turns =
    limits.maxTurns && requests >= limits.maxTurns.value
      ? limits.maxTurns
      : limits.requests?.reached
        ? limits.requests.limit
        : undefined;
  if (turns) {
    return {
      reason: "max_turns",
      message: `the run reached its limit of ${plural(turns.value, "model request")} (${turns.setting}) before the agent finished`,
    };
  }
  if (limits.cost?.reached) {
    const { limit, spent } = limits.cost;
    return {
      reason: "max_cost",
      message: `the run reached its cost limit of $${limit.value} (${limit.setting}) with ${dollarsText(spent)} spent, before the agent finished`,
    };
  }
  return undefined;
}

/** A budget cannot be kept with a model whose answers have no price: refused rather than ignored. */
export function unpricedBudget(limits: RunLimits | undefined, model: ResolvedModel): string | undefined {
  if (!limits?.cost || model.prices) return undefined;
  return `${limits.cost.limit.setting} needs the prices of model ${model.ref}, which has none: set providers.${model.provider}.models.${model.alias}.cost in config.yaml (docs/config.md), or run without a cost limit`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
