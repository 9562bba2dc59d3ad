/** Whether a process is still running, as tests about ended processes and process groups need it. */
import { readFileSync } from "node:fs";

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
