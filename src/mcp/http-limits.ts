/** `--idle-timeout` and `--max-sessions` of `rienda mcp serve --http`, checked before anything is loaded. */
import { RiendaError } from "../errors.ts";
import { DURATION_RULE, parseDuration } from "../limits/index.ts";

/** A session with no request for 30 minutes is closed. */
export const DEFAULT_IDLE_MS = 30 * 60_000;

/** At most 32 sessions at once: one per client is the usual, a run opens one for its length. */
export const DEFAULT_MAX_SESSIONS = 32;

/** The longest idle timeout: 24 hours (a timer cannot wait much longer than 24 days anyway). */
const MAX_IDLE_MS = 24 * 3_600_000;

/** `30m`, `90s`, `1h30m`, `500ms` (limits/duration.ts, as `--timeout` takes them) as milliseconds: 100 ms to 24 h. */
export function parseIdleTimeout(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new RiendaError("usage", `mcp serve: --idle-timeout wants ${DURATION_RULE} (got "${text}")`);
  if (parsed.ms < 100 || parsed.ms > MAX_IDLE_MS)
    throw new RiendaError("usage", `mcp serve: --idle-timeout must be between 100ms and 24h (got "${text}")`);
  return parsed.ms;
}

/** A whole number from 1 to 10000. */
export function parseMaxSessions(text: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new RiendaError("usage", `mcp serve: --max-sessions wants a whole number from 1 to 10000 (got "${text}")`);
  return n;
}
