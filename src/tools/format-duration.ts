/**
 * A duration as the Go Rienda printed it ("500ms", "1.5s", "2m0s", "1h0m0s"),
 * so `command timed out after …` reads the same as before.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  const s = `${trimNumber(seconds)}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

function trimNumber(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
