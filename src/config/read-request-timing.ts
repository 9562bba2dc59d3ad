/**
 * `timeout`, `idle_timeout` and `retries` (new) of a provider or one of its
 * models: how long a model request may wait for its first byte and between
 * two bytes, and how often a failed attempt is tried again.
 */
import { parseDuration } from "../limits/index.ts";
import type { ConfigReader } from "./config-reader.ts";
import type { KeyPath } from "./key-path.ts";
import type { RequestTimingSettings } from "./types.ts";

/** The keys, as written in YAML, on a provider and on a model. */
export const REQUEST_TIMING_KEYS = ["timeout", "idle_timeout", "retries"] as const;

/** More retries than this only delay a failure that is not going away (the schedule caps each wait at 8 s). */
const MAX_RETRIES = 20;

/** Reads the timing keys of `map` (at `path`); problems go to `reader`. */
export function readRequestTiming(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: KeyPath,
): RequestTimingSettings {
  const timing: RequestTimingSettings = {};
  const duration = (key: "timeout" | "idle_timeout"): number | undefined => {
    const value = map[key];
    if (value === null || value === undefined) return undefined;
    const read = parseDuration(value);
    if (read.ok) return read.ms;
    reader.problem([...path, key], read.problem);
    return undefined;
  };
  const timeoutMs = duration("timeout");
  const idleTimeoutMs = duration("idle_timeout");
  if (timeoutMs !== undefined) timing.timeoutMs = timeoutMs;
  if (idleTimeoutMs !== undefined) timing.idleTimeoutMs = idleTimeoutMs;
  if (map.retries !== null && map.retries !== undefined) {
    const retries = reader.nonNegativeInteger(map, "retries", path);
    if (retries !== undefined && retries > MAX_RETRIES)
      reader.problem([...path, "retries"], `must be at most ${MAX_RETRIES} (0 turns retrying off)`);
    else if (retries !== undefined) timing.retries = retries;
  }
  return timing;
}
