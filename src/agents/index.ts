/**
 * Agent definitions (`~/.rienda/agents/<id>.md`, contract.md §3), project
 * instructions (`AGENTS.md` / `CLAUDE.md`) and the system prompt they make.
 *
 * Invariants: agents are read from HOME only, never from a workspace; every
 * failure is a RiendaError whose lines name the file; one broken agent file
 * never hides the others in a listing; a file read from a workspace on
 * Rienda's own never leads out of it through a link (linkOutOfWorkspace). Does not resolve models or tools
 * (the caller checks `model` against config and `tools`/`hooks` against
 * what is installed). No work at import time; home and workspace are parameters.
 */
export { agentFile, agentsDir, isValidAgentId } from "./agent-id.ts";
export { composeSystemPrompt, INSTRUCTIONS_SEPARATOR } from "./compose-system-prompt.ts";
export { listAgents } from "./list-agents.ts";
export { loadAgent, loadAgentFile } from "./load-agent.ts";
export { INSTRUCTION_FILES, loadProjectInstructions } from "./load-project-instructions.ts";
export { linkOutOfWorkspace, outsideLinkText, type OutsideLink } from "./workspace-link.ts";
export { parseAgent } from "./parse-agent.ts";
export { readFrontmatter, type Frontmatter } from "./read-frontmatter.ts";
export { isValidSkillName, SKILL_NAME_RULE, SKILL_TOOL_NAME } from "./skill-name.ts";
export { AGENT_LAYOUT, splitFrontmatter, type FileLayout, type SplitFile } from "./split-frontmatter.ts";
export { toAgentInfo } from "./to-agent-info.ts";
export type { Agent, AgentList, AgentProblem, ProjectInstructions } from "./types.ts";
