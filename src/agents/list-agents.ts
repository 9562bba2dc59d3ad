/** Listing every agent of `~/.rienda/agents`, broken ones reported beside the good ones. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isRiendaError, messageOf } from "../errors.ts";
import { agentsDir, isValidAgentId } from "./agent-id.ts";
import { parseAgent } from "./parse-agent.ts";
import type { Agent, AgentList, AgentProblem } from "./types.ts";

/**
 * Reads every `<id>.md` (symbolic links followed; hidden files, other
 * extensions and directories skipped). A missing directory is an empty list.
 * Never throws: a file that fails is a problem entry and hides nothing else.
 */
export function listAgents(home: string): AgentList {
  const dir = agentsDir(home);
  const agents: Agent[] = [];
  const problems: AgentProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== "ENOENT")
      problems.push({ id: "", file: dir, message: `${dir}: cannot be listed: ${messageOf(cause)}` });
    return { agents, problems };
  }
  for (const name of names.sort()) {
    if (!name.endsWith(".md") || name.startsWith(".")) continue;
    const file = join(dir, name);
    const id = name.slice(0, -".md".length);
    try {
      if (!statSync(file).isFile()) continue;
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "is a broken symbolic link" : `cannot be read: ${messageOf(cause)}`;
      problems.push({ id, file, message: `${file}: ${why}` });
      continue;
    }
    if (!isValidAgentId(id)) {
      problems.push({
        id,
        file,
        message: `${file}: "${id}" is not a valid agent id (no "\\", no control characters, not ending in ".md")`,
      });
      continue;
    }
    try {
      agents.push(parseAgent(id, readFileSync(file, "utf8"), file));
    } catch (error) {
      const message = isRiendaError(error) ? error.message : `${file}: cannot be read: ${messageOf(error)}`;
      problems.push({ id, file, message });
    }
  }
  return { agents, problems };
}
