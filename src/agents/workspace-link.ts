/**
 * Files Rienda reads from a workspace on its own (AGENTS.md, CLAUDE.md,
 * and whatever else it may read there: workspace skills) never lead out of
 * it. A cloned repository is not trusted: its `AGENTS.md` may be a
 * symbolic link to `~/.ssh/id_rsa` or `../../.aws/credentials`, and what
 * the file holds goes to the provider. Such a file is skipped, with a
 * warning naming the link and where it leads (issue 39).
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

/** A path of the workspace that a symbolic link (the file or a folder on its way) leads out of it. */
export interface OutsideLink {
  /** The path as Rienda looked it up (inside the workspace). */
  link: string;
  /** Where it really leads: an absolute path outside the workspace. */
  target: string;
}

/**
 * Where `path` really is, when that is outside `workspace` (links are
 * followed all the way, the workspace's own path included, so a workspace
 * reached through a link is still itself); undefined when the path stays
 * inside or does not exist (a dangling link reads as missing).
 */
export function linkOutOfWorkspace(workspace: string, path: string): OutsideLink | undefined {
  let real: string;
  let realWorkspace: string;
  try {
    real = realpathSync(path);
    realWorkspace = realpathSync(workspace);
  } catch {
    return undefined;
  }
  const within = relative(realWorkspace, real);
  const inside = within !== ".." && !within.startsWith(`..${sep}`) && !isAbsolute(within);
  return inside ? undefined : { link: path, target: real };
}

/** The warning of a skipped file: the link, where it leads, and what was done. */
export function outsideLinkText(found: OutsideLink): string {
  return `${found.link}: skipped: it leads through a symbolic link to ${found.target}, outside the workspace (Rienda never follows a link out of the workspace for a file it reads on its own)`;
}
