/** One limit key's value, checked the same way in agent files and config.yaml. */
import { describeYamlValue } from "../values.ts";
import { parseDuration } from "./duration.ts";
import type { LimitSettings } from "./types.ts";

/** The limit keys, as written in YAML. */
export const LIMIT_KEYS = ["max_turns", "max_cost", "timeout"] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** Adds `key: value` to `settings`, or returns the problem (without the key's path). */
export function readLimit(settings: LimitSettings, key: LimitKey, value: unknown): string | undefined {
  if (key === "max_turns") {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      return `must be a whole number of model requests, 1 or more, not ${describeYamlValue(value)}`;
    settings.maxTurns = value;
  } else if (key === "max_cost") {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
      return `must be an amount of US dollars above 0, such as 0.50, not ${describeYamlValue(value)}`;
    settings.maxCost = value;
  } else {
    const read = parseDuration(value);
    if (!read.ok) return read.problem;
    settings.timeoutMs = read.ms;
  }
  return undefined;
}
