/**
 * Bounds of a run (docs/cli.md "Limits"): how many model requests, how many
 * dollars, how long. Written on the command line, in an agent's frontmatter
 * or in config.yaml's `limits:`; the engine enforces turns and cost, the
 * command enforces time.
 */
export { DURATION_RULE, durationText, parseDuration } from "./duration.ts";
export { LIMIT_KEYS, readLimit, type LimitKey } from "./read-limit.ts";
export type { LimitSettings } from "./types.ts";
