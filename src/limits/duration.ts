/**
 * Durations as people write them in flags and YAML: `90s`, `10m`, `1h30m`,
 * `500ms`, or a plain number of seconds. One parser for the command line,
 * agent files and config.yaml, so `--timeout 10m` and `timeout: 10m` mean
 * the same.
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

/** What people may write, for messages. */
export const DURATION_RULE = 'a duration such as "90s", "10m", "1h30m" or "500ms", or a number of seconds';

/** A duration in milliseconds, or why `value` is not one; zero and negative durations are refused. */
export function parseDuration(value: unknown): { ok: true; ms: number } | { ok: false; problem: string } {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0)
      return { ok: false, problem: `must be more than 0 seconds (${DURATION_RULE})` };
    return { ok: true, ms: Math.round(value * 1000) };
  }
  if (typeof value !== "string") return { ok: false, problem: `must be ${DURATION_RULE}` };
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return parseDuration(Number(text));
  let ms = 0;
  PART.lastIndex = 0;
  let at = 0;
  for (let match = PART.exec(text); match; match = PART.exec(text)) {
    ms += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    at = PART.lastIndex;
  }
  if (text === "" || at !== text.length) return { ok: false, problem: `"${value}" is not ${DURATION_RULE}` };
  if (ms <= 0) return { ok: false, problem: `must be more than 0 (${DURATION_RULE})` };
  return { ok: true, ms: Math.round(ms) };
}

/** `90s`, `10m`, `1h30m`: a duration the way the user could have written it. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ["h", UNIT_MS.h],
    ["m", UNIT_MS.m],
    ["s", UNIT_MS.s],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join("");
}
