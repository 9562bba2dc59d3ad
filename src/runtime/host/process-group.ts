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
