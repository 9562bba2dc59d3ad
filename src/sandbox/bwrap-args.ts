/**
 * The bubblewrap command line of one sandboxed command (Linux): a new mount
 * namespace made of read-only binds of the whole file system, a private
 * `/tmp`, the hidden paths masked, the workspace (and `writable:` paths)
 * bound read-write in `workspace-write` with its `.git` bound read-only
 * again, a new PID namespace (nothing the command starts outlives it), and
 * no network namespace access when the network is off (only a loopback of
 * its own), no capability even when run by root. The order of the binds
 * matters: each covers those before it.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SandboxPolicy } from "./types.ts";

/** What bubblewrap needs to know about the paths of the policy (read from disk in real use, given in tests). */
export interface PathFacts {
  /** The real path (links followed), or undefined when nothing is there. */
  real(path: string): string | undefined;
  isDirectory(path: string): boolean;
}

/** The file system as it is. */
export const diskFacts: PathFacts = {
  real(path) {
    try {
      return existsSync(path) ? realpathSync(path) : undefined;
    } catch {
      return undefined;
    }
  },
  isDirectory(path) {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
};

/** Arguments for `bwrap`, before `sh -c command`. */
export function bwrapArgs(policy: SandboxPolicy, cwd: string, facts: PathFacts = diskFacts): string[] {
  const workspace = facts.real(policy.workspace) ?? policy.workspace;
  const hidden = policy.hide.flatMap((path) => {
    const real = facts.real(path);
    return real === undefined ? [] : [real];
  });
  // A hidden path that holds the workspace is masked first (the workspace is bound over it);
  // any other after the workspace, so that a hidden path inside it (`.env`) stays hidden.
  const holdsWorkspace = (path: string) =>
    workspace === path || workspace.startsWith(path.endsWith("/") ? path : `${path}/`);
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  args.push(...hidden.filter(holdsWorkspace).flatMap((path) => maskArgs(path, facts)));
  if (policy.mode === "workspace-write") {
    args.push("--bind", workspace, workspace);
    for (const path of policy.writable) {
      const real = facts.real(path);
      if (real !== undefined) args.push("--bind", real, real);
    }
    const git = facts.real(join(workspace, ".git"));
    if (!policy.gitWrite && git !== undefined) args.push("--ro-bind", git, git);
  } else {
    // Bound again so that a workspace under /tmp stays visible over the private /tmp.
    args.push("--ro-bind", workspace, workspace);
  }
  args.push(...hidden.filter((path) => !holdsWorkspace(path)).flatMap((path) => maskArgs(path, facts)));
  // Run by root, bubblewrap would keep every capability (a remount makes `/` writable again): none is kept.
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL", "--die-with-parent");
  if (!policy.network) args.push("--unshare-net");
  args.push("--chdir", facts.real(cwd) ?? cwd);
  return args;
}

/** A directory becomes an empty one that cannot be written; a file (or socket) reads as empty and cannot be written. */
function maskArgs(path: string, facts: PathFacts): string[] {
  return facts.isDirectory(path) ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path];
}
