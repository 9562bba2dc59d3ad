/** Host side: `ctx.system.which`. */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";

/**
 * `ctx.system.which`: the absolute path of an executable file named `name`
 * on `PATH` (or at `name` itself when it contains a slash, relative to
 * `workdir`), else null.
 */
export function findExecutable(name: string, workdir: string, path: string | undefined): string | null {
  if (name === "") return null;
  if (name.includes("/")) {
    const abs = isAbsolute(name) ? name : resolve(workdir, name);
    return isExecutableFile(abs) ? abs : null;
  }
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = resolve(workdir, dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
