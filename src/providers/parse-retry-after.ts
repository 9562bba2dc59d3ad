/**
 * Reads how long a provider asks us to wait: `retry-after-ms` (sent by
 * OpenAI), else `retry-after` as seconds or as an HTTP date. Returns
 * undefined when absent or unreadable.
 * https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
