/**
 * Agent ids and where their files live. An id is the file name without
 * `.md`; the rule is the Go original's (any plain file name that is not
 * hidden), not the stricter tool-name rule, so existing agents keep working.
 */
import { join } from "node:path";

/** `~/.rienda/agents` for the given home directory. */
export function agentsDir(home: string): string {
  return join(home, ".rienda", "agents");
}

/** The definition file of agent `id`. */
export function agentFile(home: string, id: string): string {
  return join(agentsDir(home), `${id}.md`);
}

/**
 * True for a usable id: non-empty, no "/" or "\", not starting with "."
 * (hidden files are not agents), no control characters, and not itself
 * ending in ".md".
 */
export function isValidAgentId(id: string): boolean {
  if (id === "" || id.startsWith(".") || id.endsWith(".md")) return false;
  return !/[/\\\u0000-\u001f\u007f]/.test(id);
}
