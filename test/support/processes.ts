/** The binary's processes still alive for one test instance, found by their HOME (Linux /proc). Never imports src/. */
import { readdirSync, readFileSync } from "node:fs";

/** Pids of running (not zombie) rienda processes whose HOME is `home`. */
export function processesWithHome(home: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (!environ.includes(`HOME=${home}`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("rienda")) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}
