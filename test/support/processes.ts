/** Whether processes are still running, as tests about ended processes, process groups and hang-ups need it. */
import { readdirSync, readFileSync } from "node:fs";

/**
 * True while `pid` runs. A zombie (ended, waiting to be reaped by its
 * parent or init) counts as ended, and so does a pid /proc does not know.
 */
export function processRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state is the field after the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Pids of running rienda processes whose HOME is `home` (one test instance's). */
export function processesWithHome(home: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (!environ.includes(`HOME=${home}`) || !processRunning(Number(entry))) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("rienda")) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}
