/**
 * The git branch of a directory, for the chat's status line: read from
 * `.git/HEAD` of the nearest repository above it (a worktree's `.git` file
 * leads to its own HEAD), without running git. A detached HEAD gives the
 * commit's first 7 characters; no repository, or one that cannot be read,
 * gives undefined.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export function gitBranchOf(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const head = headFile(join(at, ".git"));
    if (head !== undefined) return branchIn(head);
    if (dirname(at) === at) return undefined;
  }
}

/** The HEAD file of the repository whose `.git` is `dotGit` (a directory, or a worktree's file). */
function headFile(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return join(dotGit, "HEAD");
    const gitdir = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return gitdir ? join(resolve(dirname(dotGit), gitdir), "HEAD") : undefined;
  } catch {
    return undefined;
  }
}

function branchIn(head: string): string | undefined {
  try {
    const text = readFileSync(head, "utf8").trim();
    const ref = /^ref: refs\/heads\/(.+)$/.exec(text)?.[1];
    return ref ?? (/^[0-9a-f]{40,64}$/.test(text) ? text.slice(0, 7) : undefined);
  } catch {
    return undefined;
  }
}
