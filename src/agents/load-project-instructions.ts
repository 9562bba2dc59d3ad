/** Project instructions: the workspace's `AGENTS.md`, else its `CLAUDE.md` (contract.md §1). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RiendaError } from "../errors.ts";
import type { ProjectInstructions } from "./types.ts";

/** Looked up in this order; the first that exists is used, even when empty. Names are exact. */
export const INSTRUCTION_FILES: readonly string[] = Object.freeze(["AGENTS.md", "CLAUDE.md"]);

/**
 * Reads the first instructions file of `workspace`, or `undefined` when it has
 * none (a directory with such a name does not count). A file that exists but
 * cannot be read is a RiendaError naming it: silently dropping the project's
 * rules would be worse than stopping.
 */
export function loadProjectInstructions(workspace: string): ProjectInstructions | undefined {
  for (const name of INSTRUCTION_FILES) {
    const file = join(workspace, name);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") continue;
      const why = code === "EACCES" ? "permission denied" : (cause as Error).message;
      throw new RiendaError("workdir", `${file}: cannot be read: ${why}`, { cause });
    }
    const normalized = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n").trim();
    return { file, text: normalized };
  }
  return undefined;
}
