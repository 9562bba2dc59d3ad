/** Where a continued session runs when -C is not given. */
import { statSync } from "node:fs";
import { RiendaError } from "../errors.ts";
import type { SessionFile } from "../sessions/index.ts";

/**
 * Where a continued session runs when -C is not given: in the workspace it
 * was started in (its tools' relative paths, AGENTS.md and listing belong
 * there), not wherever `-s ID` happens to be typed. Returns that directory
 * and, when it differs from the current one, the notice saying so; a
 * workspace that no longer exists is an error pointing at -C.
 */
export function sessionWorkdir(
  session: Pick<SessionFile, "id" | "header">,
  current: string,
): { workdir: string; notice?: string } {
  const recorded = session.header.workdir;
  if (recorded === current) return { workdir: current };
  let isDir = false;
  try {
    isDir = statSync(recorded).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) {
    throw new RiendaError(
      "workdir",
      `session ${session.id} was started in ${recorded}, which no longer exists; continue it elsewhere with -C DIR`,
    );
  }
  return {
    workdir: recorded,
    notice: `continuing session ${session.id} in its workspace ${recorded} (not the current directory; -C DIR runs it elsewhere)`,
  };
}
