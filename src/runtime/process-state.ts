/**
 * A process has one current directory and one file mode mask, shared by
 * Rienda and every worker: a tool or hook that calls `process.chdir()` would
 * move the directory for Rienda and for every later call, whose relative
 * paths would then lead elsewhere, and one that calls `process.umask(0)`
 * would make every file created afterwards (by later calls, the commands
 * they run, Rienda itself) writable by anyone, when each call must start in
 * a fresh runtime (tools.md, hooks.md). The runtime puts both back once a
 * call (or a discovery lane) is over.
 */

/** Remembers the current directory and the umask; the function returned goes back to them. */
export function keepProcessState(): () => void {
  const start = currentDirectory();
  const mask = currentUmask();
  return () => {
    if (mask !== undefined) {
      try {
        // Setting returns the mask a module left: one system call, like the directory's.
        process.umask(mask);
      } catch {
        // A runtime without umask has none to put back.
      }
    }
    // Always: process.cwd() answers from a copy each thread keeps, so the
    // host cannot see that a worker moved; going back costs one system call.
    if (start === undefined) return;
    try {
      process.chdir(start);
    } catch {
      // Gone since: nothing to go back to, and nothing Rienda reads depends on it.
    }
  };
}

function currentUmask(): number | undefined {
  try {
    return process.umask();
  } catch {
    return undefined;
  }
}

function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
