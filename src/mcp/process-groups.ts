/**
 * Every stdio MCP server runs in its own process group (so a server's own
 * children end with it). The groups still alive are killed when Rienda's
 * process exits, however it exits: a normal end, an error, a signal handler
 * calling process.exit, and a signal no handler of Rienda takes (`rienda
 * tool list` and `doctor` keep the default action of Ctrl-C, which ends a
 * process without its exit hooks: the groups are killed first, then the
 * signal is raised again). Only SIGKILL of Rienda itself escapes this; the
 * servers then see their stdin close, which the MCP stdio transport treats
 * as the end of the session.
 */

const live = new Set<number>();
let installed = false;

/** Remembers a group until `forgetGroup`; killed at exit if still there. */
export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (installed) return;
  installed = true;
  process.on("exit", killLive);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      // Another listener (the interrupt watcher of run, chat, tool run) owns the signal and ends through process.exit.
      if (process.listenerCount(signal) > 1) return;
      killLive();
      process.removeListener(signal, onSignal);
      // The default action, as if no listener had been there: the process dies of the signal.
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function killLive(): void {
  for (const group of live) signalGroup(group, "SIGKILL");
  live.clear();
}

/** The group has ended (or was killed on purpose). */
export function forgetGroup(pgid: number): void {
  live.delete(pgid);
}

/** Sends `signal` to every process of the group; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
