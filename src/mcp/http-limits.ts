/** `--idle-timeout` and `--max-sessions` of `rienda mcp serve --http`, checked before anything is loaded. */
import { RiendaError } from "../errors.ts";

/** A session with no request for 30 minutes is closed. */
export const DEFAULT_IDLE_MS = 30 * 60_000;

/** At most 32 sessions at once: one per client is the usual, a run opens one for its length. */
export const DEFAULT_MAX_SESSIONS = 32;

/** The longest idle timeout: 24 hours (a timer cannot wait much longer than 24 days anyway). */
const MAX_IDLE_MS = 24 * 3_600_000;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30m`, `90s`, `1h`, `500ms` as milliseconds: 100 ms to 24 h. */
export function parseIdleTimeout(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new RiendaError("usage", `mcp serve: --idle-timeout wants a duration with its unit, e.g. 30m, 90s, 2h or 500ms (got "${text}")`);
  const ms = Math.round(Number(match[1]) * UNITS[match[2]!]!);
  if (ms < 100 || ms > MAX_IDLE_MS) throw new RiendaError("usage", `mcp serve: --idle-timeout must be between 100ms and 24h (got "${text}")`);
  return ms;
}

/** A whole number from 1 to 10000. */
export function parseMaxSessions(text: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new RiendaError("usage", `mcp serve: --max-sessions wants a whole number from 1 to 10000 (got "${text}")`);
  return n;
}

/** A duration as the flag takes it: `30m`, `90s`, `1500ms`. */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
