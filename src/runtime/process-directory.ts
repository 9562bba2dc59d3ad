/**
 * A process has one current directory, shared by Rienda and every worker:
 * a tool or hook that calls `process.chdir()` would move it for Rienda and
 * for every later call, whose relative paths would then lead elsewhere,
 * when each call must start in a fresh runtime (tools.md, hooks.md). The
 * runtime puts it back once a call (or a discovery lane) is over.
 */

/** Remembers the current directory; the function returned goes back to it. */
export function keepDirectory(): () => void {
  const start = currentDirectory();
  return () => {
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

function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
