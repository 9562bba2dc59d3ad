/**
 * Where a workspace's sessions live: `~/.rienda/sessions/<slug>-<hash8>/`.
 * The slug and hash are those of contract §6, read literally; a directory
 * spelled otherwise (an earlier build trimmed the leading `-`) is still
 * found by its hash.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const SLUG_MAX_BYTES = 100;
const encoder = new TextEncoder();

/** `<home>/.rienda/sessions`, the root of every workspace directory. */
function sessionsRoot(home: string): string {
  return join(home, ".rienda", "sessions");
}

/**
 * The readable part of a workspace directory name (contract §6): letters
 * (any script), digits and `_` survive, every run of other characters
 * becomes one `-` (so an absolute path starts with `-`), and the result is
 * cut to at most 100 bytes on a character boundary.
 */
export function workspaceSlug(workdir: string): string {
  const slug = resolve(workdir).replace(/[^\p{L}\p{Nd}_]+/gu, "-");
  if (encoder.encode(slug).length <= SLUG_MAX_BYTES) return slug;
  let cut = "";
  let bytes = 0;
  for (const char of slug) {
    const size = encoder.encode(char).length;
    if (bytes + size > SLUG_MAX_BYTES) break;
    cut += char;
    bytes += size;
  }
  return cut;
}

/** First 8 hex digits of the sha256 of the absolute workspace path. */
export function workspaceHash(workdir: string): string {
  return createHash("sha256").update(resolve(workdir)).digest("hex").slice(0, 8);
}

/** `<slug>-<hash8>` (`/` gives `--<hash8>`). */
export function workspaceDirName(workdir: string): string {
  return `${workspaceSlug(workdir)}-${workspaceHash(workdir)}`;
}

/** The directory new sessions of `workdir` are created in. */
export function workspaceDir(home: string, workdir: string): string {
  return join(sessionsRoot(home), workspaceDirName(workdir));
}

/**
 * Every existing directory holding sessions of `workdir`: the canonical one
 * and any other spelling of the slug with the same hash (a slug kept with
 * no leading `-`, as earlier builds wrote it). The hash alone identifies the workspace.
 */
export function workspaceDirs(home: string, workdir: string): string[] {
  const root = sessionsRoot(home);
  const suffix = `-${workspaceHash(workdir)}`;
  const canonical = workspaceDirName(workdir);
  const all = readDirs(root);
  const others = all.filter((name) => name !== canonical && name.endsWith(suffix) && !name.startsWith(".")).sort();
  const names = all.includes(canonical) ? [canonical, ...others] : others;
  return names.map((name) => join(root, name));
}

/** Every workspace directory under the sessions root. */
export function allWorkspaceDirs(home: string): string[] {
  const root = sessionsRoot(home);
  return readDirs(root)
    .filter((name) => !name.startsWith("."))
    .map((name) => join(root, name));
}

function readDirs(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}
