/** Prints one figure the way every benchmark does: name, median, spread (p10..p90), sample count. */
export function report(name: string, samples: number[], unit: "ms" | "us" | "MB"): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const fmt = (v: number) => (unit === "us" ? v.toFixed(1) : v.toFixed(2));
  console.log(
    `${name.padEnd(48)} median ${fmt(at(0.5)).padStart(8)} ${unit}   spread ${fmt(at(0.1))}..${fmt(at(0.9))} ${unit}   n=${samples.length}`,
  );
}
