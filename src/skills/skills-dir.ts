/** Where skills live: `~/.rienda/skills/<name>/SKILL.md`, never the workspace. */
import { join } from "node:path";

/** The file every skill folder holds. */
export const SKILL_FILE = "SKILL.md";

/** `~/.rienda/skills` for the given home directory. */
export function skillsDir(home: string): string {
  return join(home, ".rienda", "skills");
}
