/** Host side: ends process groups: those a context recorded in its bridge buffer, and any one by its leader. */
import { GROUP_COUNT, GROUP_FIRST, GROUP_SLOTS, GROUPS_ENDED, INTERRUPT, SPAWNING } from "../bridge-layout.ts";
import { reapChild } from "../../platform.ts";

/**
 * The processes a tool or hook starts itself (`node:child_process`'s
 * spawn, exec, execFile and fork, or Bun's spawn) do not die with its worker
 * or with Rienda. So the worker starts each as the leader of a process group
 * of its own and records the group in the table of its bridge buffer, in
 * shared memory: the record costs no round trip, needs no host serving the
 * bridge (a discovery lane has none), and is there as soon as the spawn
 * returns. The host ends every recorded group with SIGKILL, as it does for
 * `ctx.system.exec`: when the call ends, whichever way (answer, error,
 * crash, interrupt), and once more when the worker is gone. A process that
 * left its group on purpose (`setsid`, or `detached: true`, which the worker
 * leaves alone) is not recorded.
 *
 * GROUPS_ENDED remembers how far the host got, so each group is signalled
 * once: a group whose processes have all ended may have its id handed out
 * again to someone else's.
 */
export function endContextProcesses(buffer: SharedArrayBuffer): void {
  const words = new Int32Array(buffer, 0, GROUP_FIRST + GROUP_SLOTS);
  const recorded = Math.min(Atomics.load(words, GROUP_COUNT), GROUP_SLOTS);
  let ended = Atomics.load(words, GROUPS_ENDED);
  for (; ended < recorded; ended++) {
    const group = Atomics.load(words, GROUP_FIRST + ended);
    if (group > 1) {
      killProcessGroup(group);
      unreaped.add(group);
    }
  }
  Atomics.store(words, GROUPS_ENDED, ended);
  if (unreaped.size > 0) reapSoon(REAP_FIRST_MS);
}

/**
 * Each group's leader is a child of this process, started by a worker that
 * is gone (or parked) by now: nothing else collects its exit status, so it
 * would stay a zombie until Rienda exits, one per process a tool started,
 * which a long chat or `mcp serve` would pile up. Its pid stays reserved
 * until it is collected, so it cannot name another process meanwhile.
 */
const unreaped = new Set<number>();
const REAP_FIRST_MS = 20;
const REAP_LAST_MS = 2_000;
let reapTimer: ReturnType<typeof setTimeout> | undefined;

function reapSoon(delayMs: number): void {
  if (reapTimer) return;
  reapTimer = setTimeout(() => {
    reapTimer = undefined;
    for (const pid of [...unreaped]) if (reapChild(pid) !== "running") unreaped.delete(pid);
    // A process killed a moment ago may take a little while to end.
    if (unreaped.size > 0) reapSoon(Math.min(delayMs * 2, REAP_LAST_MS));
  }, delayMs);
  (reapTimer as { unref?(): void }).unref?.();
}

/**
 * Longest wait for a context that is starting a process when it is to be
 * ended. Starting one takes a few milliseconds, but on a loaded machine the
 * child may already run (and be seen) well before the spawn returns.
 */
const SPAWN_WAIT_MS = 500;

/**
 * Before a worker that may still run is ended: a worker ended between
 * starting a child and recording it would leave the child unknown (measured
 * under load: half of such interrupts). So the context may start no more
 * (the interrupt word, which it reads after announcing a spawn in SPAWNING),
 * and this thread waits, blocked, until the one being started is recorded.
 * Blocking is what makes it certain: a `rienda run` that is interrupted exits
 * soon after, and nothing asynchronous would be waited for.
 */
export function stopContextSpawns(buffer: SharedArrayBuffer): void {
  const words = new Int32Array(buffer, 0, GROUP_FIRST);
  Atomics.store(words, INTERRUPT, 1);
  Atomics.notify(words, INTERRUPT);
  const deadline = performance.now() + SPAWN_WAIT_MS;
  let left = SPAWN_WAIT_MS;
  while (Atomics.load(words, SPAWNING) === 1 && left > 0) {
    Atomics.wait(words, SPAWNING, 1, left);
    left = deadline - performance.now();
  }
}

/**
 * Ends a whole process group with SIGKILL: its leader and everything still
 * in the group. Children do not die with a worker or with Rienda, so every
 * process Rienda or a tool starts runs as the leader of a group of its own,
 * ended this way; only a process that leaves the group on purpose (`setsid`)
 * escapes.
 */
export function killProcessGroup(leader: number): void {
  try {
    process.kill(-leader, "SIGKILL");
  } catch {
    // Every process of the group has ended already.
  }
}

/** After a leader exits, how long a process that left its group may keep the pipes open before we stop reading. */
export const PIPE_GRACE_MS = 200;
