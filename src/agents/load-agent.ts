/** Loading one agent by id from `~/.rienda/agents`. */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { RiendaError } from "../errors.ts";
import { unknownDefinitionMessage } from "../values.ts";
import { agentFile, agentsDir, isValidAgentId } from "./agent-id.ts";
import { listAgents } from "./list-agents.ts";
import { parseAgent } from "./parse-agent.ts";
import type { Agent } from "./types.ts";

/**
 * Loads agent `id` for the home directory `home`. Throws RiendaError (code
 * "agent"): an invalid id, an unknown agent (listing the available ones), an
 * unreadable file, or a definition that does not validate.
 */
export function loadAgent(home: string, id: string): Agent {
  if (!isValidAgentId(id)) {
    throw new RiendaError(
      "agent",
      `invalid agent id "${id}" (an agent is ${agentsDir(home)}/<id>.md; an id is a plain file name without ".md")`,
    );
  }
  const file = agentFile(home, id);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new RiendaError("agent", unknownAgentMessage(home, id), { cause });
    const why =
      code === "EISDIR"
        ? "is a directory, not an agent file"
        : code === "EACCES"
          ? "cannot be read: permission denied"
          : `cannot be read: ${(cause as Error).message}`;
    throw new RiendaError("agent", `${file}: ${why}`, { cause });
  }
  return parseAgent(id, text, file);
}

/**
 * Loads the agent definition at `path` (`--agent-file`, new): a file given
 * on the command line, such as one committed in a repository for CI. Its id
 * is the file name without `.md`. Its tools, hooks, skills and subagents
 * still come from `~/.rienda` only. Throws RiendaError (code "agent").
 */
export function loadAgentFile(path: string, cwd: string): Agent {
  const file = resolve(cwd, path);
  const id = basename(file).replace(/\.md$/i, "");
  if (!isValidAgentId(id))
    throw new RiendaError(
      "agent",
      `${file}: "${id}" cannot be an agent id (the file name without ".md" is the agent's id; it may not be empty or start with ".")`,
    );
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? "no such agent file (--agent-file)"
        : code === "EISDIR"
          ? "is a directory, not an agent file"
          : code === "EACCES"
            ? "cannot be read: permission denied"
            : `cannot be read: ${(cause as Error).message}`;
    throw new RiendaError("agent", `${file}: ${why}`, { cause });
  }
  return parseAgent(id, text, file);
}

function unknownAgentMessage(home: string, id: string): string {
  const { agents, problems } = listAgents(home);
  const dir = agentsDir(home);
  const broken = [...new Set(problems.map((p) => p.id).filter((p) => p !== ""))];
  const found = { dir, loaded: agents.map((a) => a.id), broken, problems: problems.length };
  return unknownDefinitionMessage(
    "agent",
    id,
    found,
    `: there are no agents in ${dir} yet. Create ${dir}/${id}.md (see docs/agents.md), or run "rienda init" for an example agent`,
  );
}
