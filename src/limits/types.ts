/** Limits as one place writes them (an agent file, config.yaml's `limits:`), before precedence is applied. */
export interface LimitSettings {
  /** `max_turns`: model requests per run. */
  maxTurns?: number;
  /** `max_cost`: US dollars per run, subagents' answers included. */
  maxCost?: number;
  /** `timeout`: wall-clock milliseconds for the whole run. */
  timeoutMs?: number;
}
