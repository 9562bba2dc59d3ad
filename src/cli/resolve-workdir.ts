import { statSync } from "node:fs";
import { resolve } from "node:path";
import { RiendaError } from "../errors.ts";

/** The absolute workspace directory of `-C DIR` (default: the current one); a missing one is an error. */
export function resolveWorkdir(dir: string | undefined, cwd: string = process.cwd()): string {
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
