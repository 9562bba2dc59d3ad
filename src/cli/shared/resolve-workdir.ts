/** The current directory as the user's shell names it (symbolic links kept). */
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { RiendaError } from "../../errors.ts";

/**
 * The current directory as the user's shell names it: `$PWD` when it is
 * absolute and is this very directory, else the kernel's path. A workspace
 * reached through a symbolic link (`~/code` linked to another disk, macOS's
 * `/tmp`) keeps the path the user typed and sees, as Go's `os.Getwd` gave it
 * to the Go Rienda: its sessions are filed under the hash of that path, so
 * reading the physical path instead would file ours elsewhere and leave its
 * sessions out of `rienda sessions` (contract §6: the drop-in ~/.rienda).
 */
export function currentDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const physical = process.cwd();
  const shown = env.PWD;
  if (!shown || !isAbsolute(shown) || shown === physical) return physical;
  try {
    const here = statSync(physical);
    const there = statSync(shown);
    if (here.dev === there.dev && here.ino === there.ino) return resolve(shown);
  } catch {
    // A $PWD that does not exist any more names nothing.
  }
  return physical;
}

/** The absolute workspace directory of `-C DIR` (default: the current one); a missing one is an error. */
export function resolveWorkdir(dir: string | undefined, cwd: string = currentDirectory()): string {
  const path = resolve(cwd, dir ?? ".");
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new RiendaError("workdir", `workdir "${dir ?? path}" does not exist`);
  }
  if (!isDir) throw new RiendaError("workdir", `workdir "${dir ?? path}" is not a directory`);
  return path;
}
